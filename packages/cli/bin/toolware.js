#!/usr/bin/env node
// The `toolware` command; every command lives in src/commands/ (see the README for the list and the exit codes).
import "../dist/bin.js";
