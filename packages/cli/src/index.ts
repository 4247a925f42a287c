/**
 * The public API of `@toolware/cli`: the `toolware` command as a function, for tests and for tools that embed it.
 * The command itself is the package's bin, `toolware`.
 *
 * @module @toolware/cli
 */

export { runToolware } from "./cli.js";
export { type CliIO, EXIT } from "./command.js";
