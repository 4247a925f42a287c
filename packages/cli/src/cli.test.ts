import { readFileSync } from "node:fs";
import { ToolwareError } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { usageError } from "./args.js";
import { type CommandGroup, defineCommand, EXIT } from "./command.js";
import { commands } from "./commands/index.js";
import { inProcess, scratch } from "./commands/test-fixtures.js";

const { dir } = scratch("toolware-cli-");
const version = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string })
  .version;

// A tree shaped like the commands to come: a group with commands of its own, and plain commands.
const seen: unknown[] = [];
const check = defineCommand({
  name: "check",
  summary: "checks a file",
  description: "Checks a file.",
  args: ["file", "cases?"],
  options: { strict: { type: "boolean", description: "be strict" } },
  failure: "the file has errors",
  run: async (args, io) => {
    seen.push({ ...args, cwd: io.cwd });
    await Promise.resolve();
    return args.positionals[0] === "bad.yaml" ? EXIT.failure : EXIT.ok;
  },
});
const explain = defineCommand({
  name: "explain",
  summary: "explains a decision",
  description: "Explains a decision.",
  args: ["files..."],
  options: { tool: { type: "string", short: "t", value: "NAME", description: "the tool" } },
  failure: "never",
  run: ({ positionals, options }, io) => {
    if (options.tool === "") throw usageError("--tool takes a name");
    if (options.tool === "coded") throw new ToolwareError("TOOLWARE_POLICY_INVALID", "policy: f.yaml:3:1: bad key");
    if (options.tool === "bug") throw new TypeError("undefined is not a function");
    if (options.tool === "thrown") throw "a string";
    io.out(`${positionals.join(",")} ${options.tool ?? "-"}\n`);
    return EXIT.ok;
  },
});
const tree: CommandGroup = {
  name: "tw",
  summary: "",
  description: "A test tree.",
  commands: [{ name: "policy", summary: "policies", description: "Policy commands.", commands: [check, explain] }],
};
const tw = (...argv: string[]) => inProcess(argv, dir, tree);

describe("dispatch", () => {
  it("walks into groups and runs the command with its arguments, options and working directory", async () => {
    expect(await tw("policy", "check", "ok.yaml", "--strict")).toEqual({ code: 0, out: "", err: "" });
    expect(seen.at(-1)).toEqual({
      positionals: ["ok.yaml"],
      options: { strict: true, help: false, version: false },
      cwd: dir,
    });
    expect((await tw("policy", "check", "bad.yaml", "cases.yaml")).code).toBe(EXIT.failure);
    expect(await tw("policy", "explain", "a", "b", "-t", "write_file")).toEqual({
      code: 0,
      out: "a,b write_file\n",
      err: "",
    });
  });

  it("refuses an unknown command with a hint, naming the group it looked in", async () => {
    expect(await tw("policy", "chek", "f")).toEqual({
      code: EXIT.usage,
      out: "",
      err: 'tw policy: unknown command "chek" (did you mean "check"?)\nRun "tw policy --help" for usage.\n',
    });
    expect((await tw("polcy")).err).toMatch(/^tw: unknown command "polcy" \(did you mean "policy"\?\)/);
    expect((await tw("zzz")).err).toMatch(/^tw: unknown command "zzz"\nRun "tw --help"/);
    expect(await tw("policy")).toMatchObject({
      code: EXIT.usage,
      err: expect.stringMatching(/^tw policy: expected a command: check, explain\n/),
    });
    expect(await tw()).toMatchObject({
      code: EXIT.usage,
      err: expect.stringMatching(/^tw: expected a command: policy\n/),
    });
    expect(await tw("policy", "--strict")).toMatchObject({
      code: EXIT.usage,
      err: expect.stringMatching(/unknown option "--strict"/),
    });
  });

  it("checks the number of arguments: required, optional and one-or-more", async () => {
    expect((await tw("policy", "check")).err).toMatch(
      /^tw policy check: expected 1 to 2 arguments \(file, cases\), got 0\n/,
    );
    expect((await tw("policy", "check", "a", "b", "c")).code).toBe(EXIT.usage);
    expect((await tw("policy", "explain")).err).toMatch(/expected at least 1 argument \(files\), got 0/);
  });

  it("exits 1 with the message of a coded error, 2 for a usage error, 3 with the stack of anything else", async () => {
    expect(await tw("policy", "explain", "f", "--tool", "coded")).toEqual({
      code: EXIT.failure,
      out: "",
      err: "toolware: policy: f.yaml:3:1: bad key\n",
    });
    expect((await tw("policy", "explain", "f", "--tool=")).err).toMatch(/^tw policy explain: --tool takes a name\n/);
    const bug = await tw("policy", "explain", "f", "--tool", "bug");
    expect(bug.code).toBe(EXIT.internal);
    expect(bug.err).toMatch(
      /^tw policy explain: unexpected error \(a bug in toolware: please report it\)\nTypeError: undefined is not a function\n\s+at /,
    );
    expect(await tw("policy", "explain", "f", "--tool", "thrown")).toMatchObject({
      code: EXIT.internal,
      err: expect.stringContaining("\na string\n"),
    });
  });
});

describe("--help and --version", () => {
  it("print the help of the group or command they follow, on stdout, and exit 0", async () => {
    const top = await tw("--help");
    expect(top).toMatchObject({ code: 0, err: "" });
    expect(top.out).toMatch(/^usage: tw <command> \[options\]\n\nA test tree\.\n\nCommands:\n {2}policy {2}policies\n/);
    const group = await tw("policy", "-h");
    expect(group.out).toMatch(
      /^usage: tw policy <command> \[options\]\n[\s\S]* {2}check {4}checks a file\n {2}explain {2}explains a decision\n/,
    );
    const leaf = await tw("policy", "explain", "--help");
    expect(leaf.out).toMatch(/^usage: tw policy explain <files>\.\.\. \[options\]\n\nExplains a decision\.\n/);
    expect(leaf.out).toMatch(
      / {2}-t, --tool NAME {2}the tool\n {2}-h, --help {7}show this help\n {2}-V, --version {4}print the version of toolware\n/,
    );
    expect(leaf.out).toMatch(
      /Exit codes:\n {2}0 {2}done\n {2}1 {2}never\n {2}2 {2}a usage error: .*\n {2}3 {2}an unexpected error/,
    );
    expect((await tw("policy", "check", "--help")).out).toMatch(/^usage: tw policy check <file> \[cases\] \[options\]/);
  });

  it("win over errors on the same line, but not after --", async () => {
    expect((await tw("policy", "check", "--nope", "--help")).code).toBe(0);
    expect((await tw("policy", "check", "a", "b", "c", "-V")).out).toBe(`${version}\n`);
    expect((await tw("policy", "explain", "--", "--help")).out).toBe("--help -\n");
  });

  it("print the package's version everywhere", async () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const argv of [["--version"], ["-V"], ["policy", "--version"], ["policy", "check", "--version"]]) {
      expect(await tw(...argv)).toEqual({ code: 0, out: `${version}\n`, err: "" });
    }
  });
});

describe("the toolware command tree", () => {
  it("lists every command in its help, each with a summary and a help of its own", async () => {
    const top = await inProcess(["--help"], dir);
    for (const command of commands) {
      expect(top.out).toMatch(
        new RegExp(`\\n  ${command.name} +${command.summary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n`),
      );
      const own = await inProcess([command.name, "--help"], dir);
      expect(own.code).toBe(0);
      expect(own.out).toMatch(new RegExp(`^usage: toolware ${command.name} `));
    }
  });
});

describe("runToolware's own arguments", () => {
  const sink = { out: () => {}, err: () => {} };

  it("refuses a wrong argv or io, and an unknown io key with a hint, before anything runs", async () => {
    const { runToolware } = await import("./index.js");
    await expect(runToolware("audit x" as never, sink)).rejects.toMatchObject({ code: "TOOLWARE_INVALID_ARGUMENT" });
    await expect(runToolware([1] as never, sink)).rejects.toMatchObject({ code: "TOOLWARE_INVALID_ARGUMENT" });
    await expect(runToolware([], null as never)).rejects.toMatchObject({ code: "TOOLWARE_INVALID_ARGUMENT" });
    await expect(runToolware([], { out: () => {}, error: () => {} } as never)).rejects.toMatchObject({
      code: "TOOLWARE_UNKNOWN_OPTION",
      message: expect.stringMatching(/unknown io key "error" \(did you mean `err`\?\)/),
    });
    await expect(runToolware([], { out: () => {} } as never)).rejects.toMatchObject({
      code: "TOOLWARE_INVALID_OPTION",
    });
    await expect(runToolware([], { ...sink, cwd: "" })).rejects.toMatchObject({ code: "TOOLWARE_INVALID_OPTION" });
    await expect(runToolware([], { ...sink, signal: {} as never })).rejects.toMatchObject({
      code: "TOOLWARE_INVALID_OPTION",
    });
  });

  it("calls the methods of a class instance on it, and passes the signal on", async () => {
    class Collect {
      text = "";
      out(text: string) {
        this.text += text;
      }
      err(text: string) {
        this.text += text;
      }
    }
    const io = new Collect();
    const { runToolware } = await import("./index.js");
    expect(await runToolware(["--version"], io)).toBe(0);
    expect(io.text).toBe(`${version}\n`);
    const stop = new AbortController();
    const signals: unknown[] = [];
    const tree: CommandGroup = {
      name: "tw",
      summary: "",
      description: "",
      commands: [
        defineCommand({
          name: "serve",
          summary: "",
          description: "",
          args: [],
          options: {},
          failure: "",
          run: (_args, cio) => {
            signals.push(cio.signal);
            return 0;
          },
        }),
      ],
    };
    await inProcess(["serve"], dir, tree);
    expect(signals).toEqual([undefined]);
    const { runCommands } = await import("./cli.js");
    expect(await runCommands(tree, ["serve"], { ...sink, signal: stop.signal })).toBe(0);
    expect(signals[1]).toBe(stop.signal);
    expect((await inProcess(["serve", "x"], dir, tree)).err).toMatch(/^tw serve: expected 0 arguments, got 1\n/);
  });
});
