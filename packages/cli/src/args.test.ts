import { toolwareCode } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseArgs, wholeNumber } from "./args.js";

const specs = {
  json: { type: "boolean", description: "as JSON" },
  top: { type: "string", short: "n", value: "N", description: "how many" },
  "no-rotated": { type: "boolean", description: "one file" },
} as const;

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(toolwareCode(error)).toBe("TOOLWARE_CLI_USAGE");
    return (error as Error).message;
  }
  throw new Error("expected a usage error");
}

describe("parseArgs", () => {
  it("splits positionals, flags and values in any order, with defaults for what is not given", () => {
    expect(parseArgs(["a.jsonl", "--top", "3", "--json"], specs)).toEqual({
      positionals: ["a.jsonl"],
      options: { json: true, top: "3", "no-rotated": false },
    });
    expect(parseArgs(["--top=7", "b"], specs)).toMatchObject({ positionals: ["b"], options: { top: "7" } });
    expect(parseArgs(["--top="], specs).options.top).toBe("");
    expect(parseArgs(["-n", "2", "-", "c"], specs)).toEqual({
      positionals: ["-", "c"],
      options: { json: false, top: "2", "no-rotated": false },
    });
    expect(parseArgs([], specs).options).toEqual({ json: false, top: undefined, "no-rotated": false });
  });

  it("takes everything after -- as positionals, dashes included", () => {
    expect(parseArgs(["--json", "--", "--top", "-x"], specs).positionals).toEqual(["--top", "-x"]);
  });

  it("refuses an unknown option with a did-you-mean hint when one is close", () => {
    expect(refusal(() => parseArgs(["--jsno"], specs))).toBe(
      'toolware: unknown option "--jsno" (did you mean --json?)',
    );
    expect(refusal(() => parseArgs(["--no-rotate"], specs))).toMatch(/did you mean --no-rotated\?/);
    expect(refusal(() => parseArgs(["--colour"], specs))).toBe('toolware: unknown option "--colour"');
    expect(refusal(() => parseArgs(["-x"], specs))).toBe('toolware: unknown option "-x"');
    expect(refusal(() => parseArgs(["--__proto__"], specs))).toMatch(/unknown option "--__proto__"/);
    expect(refusal(() => parseArgs(["--toString=1"], specs))).toMatch(/unknown option "--toString"/);
  });

  it("refuses a flag given a value, an option given twice and an option missing its value", () => {
    expect(refusal(() => parseArgs(["--json=no"], specs))).toMatch(/--json is a flag and takes no value/);
    expect(refusal(() => parseArgs(["--top", "1", "-n", "2"], specs))).toMatch(/--top is given twice/);
    expect(refusal(() => parseArgs(["--json", "--json"], specs))).toMatch(/--json is given twice/);
    expect(refusal(() => parseArgs(["a", "--top"], specs))).toMatch(/--top needs a value \(--top N\)/);
  });
});

describe("wholeNumber", () => {
  it("reads decimal digits and nothing else", () => {
    expect(wholeNumber("top", "0")).toBe(0);
    expect(wholeNumber("top", "20")).toBe(20);
    expect(wholeNumber("top", "007")).toBe(7);
    expect(wholeNumber("top", String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    for (const text of [
      "1e3",
      "1.5",
      "-1",
      "0x10",
      " 7",
      "7 ",
      "",
      "+5",
      "Infinity",
      "NaN",
      "1_000",
      "٣",
      "9007199254740992",
    ]) {
      expect(refusal(() => wholeNumber("top", text))).toBe(
        `toolware: --top takes a whole number of 0 or more, got ${JSON.stringify(text)}`,
      );
    }
    expect(refusal(() => wholeNumber("limit", "0", 1))).toMatch(/--limit takes a whole number of 1 or more, got "0"/);
  });

  it("accepts exactly the safe integers written in ASCII digits, and gives their value", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (text) => {
        const valid = /^[0-9]+$/.test(text) && Number.isSafeInteger(Number(text));
        let value: number | undefined;
        try {
          value = wholeNumber("top", text);
        } catch (error) {
          expect(toolwareCode(error)).toBe("TOOLWARE_CLI_USAGE");
        }
        expect(value !== undefined).toBe(valid);
        if (value !== undefined) expect(value).toBe(Number(text));
      }),
    );
    fc.assert(
      fc.property(fc.maxSafeNat(), (n) => {
        expect(wholeNumber("top", String(n))).toBe(n);
      }),
    );
  });
});
