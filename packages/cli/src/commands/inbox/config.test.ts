import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EXIT } from "../kit.js";
import { inProcess, scratch } from "../test-fixtures.js";
import { CONFIG_KEYS } from "./config.js";
import { KEYS, KEYS_ENV } from "./test-fixtures.js";

const { dir, write } = scratch("toolware-cli-inbox-config-");
const inbox = (...argv: string[]) => inProcess(["inbox", ...argv], dir);
const usage = (message: string) => `toolware inbox: ${message}\nRun "toolware inbox --help" for usage.\n`;

afterEach(() => vi.unstubAllEnvs());

describe("toolware inbox: a config file it refuses, exit 2 with FILE:LINE:COLUMN and the key path", () => {
  it("refuses an unknown key with a did-you-mean hint, where it stands", async () => {
    write("typo.yaml", "host: 127.0.0.1\nprot: 8080\n");
    expect(await inbox("--config", "typo.yaml")).toEqual({
      code: EXIT.usage,
      out: "",
      err: usage('typo.yaml:2:1: prot: unknown key "prot" (did you mean "port"?)'),
    });
    write("nested.json", '{\n  "webhooks": [\n    { "url": "https://h.example.com/x", "presett": "slack" }\n  ]\n}\n');
    expect((await inbox("--config", "nested.json")).err).toBe(
      usage('nested.json:3:41: webhooks[0].presett: unknown key "presett" (did you mean "preset"?)'),
    );
    write("far.yaml", "colour: blue\n");
    expect((await inbox("--config", "far.yaml")).err).toMatch(/unknown key "colour" \(known keys: host, port, /);
  });

  it("refuses wrong values, naming the key path and what it takes", async () => {
    const cases: [string, string][] = [
      ["port: 70000\n", "port.yaml:1:7: port: must be a whole number from 0 to 65535, got 70000"],
      ['port: "80"\n', 'port.yaml:1:7: port: must be a whole number from 0 to 65535, got "80"'],
      ["store: mysql://x\n", 'port.yaml:1:8: store: must be sqlite:PATH or redis://HOST:PORT[/DB], got "mysql://x"'],
      ["secureCookie: yes\n", 'port.yaml:1:15: secureCookie: must be true or false, got "yes"'],
      ["webhooks:\n  - url: ftp://x\n", 'port.yaml:2:10: webhooks[0].url: must be an http(s) URL, got "ftp://x"'],
      ["webhooks:\n  - preset: slack\n", 'port.yaml:2:5: webhooks[0]: needs "url": where to POST'],
      [
        "webhooks:\n  - url: http://h.example.com\n    preset: slak\n",
        'port.yaml:3:13: webhooks[0].preset: must be "json" or "slack", got "slak" (did you mean "slack"?)',
      ],
      [
        "webhooks:\n  - url: http://h.example.com\n    secretEnv: 'A B'\n",
        'port.yaml:3:16: webhooks[0].secretEnv: must be the name of an environment variable, got "A B"',
      ],
      ["webhooks: http://x\n", "port.yaml:1:11: webhooks: must be a list"],
      ["host: [a, b]\n", "port.yaml:1:7: host: must be a single value, not a list or a mapping"],
      ["- port\n", "port.yaml:1:1: must be a mapping of keys (key: value)"],
      ["port: 1\nport: 2\n", "port.yaml:2:1: not valid YAML or JSON: Map keys must be unique"],
      [
        "baseUrl: http://x?y=1\n",
        'port.yaml:1:10: baseUrl: must be an http(s) URL without query or fragment, got "http://x?y=1"',
      ],
      ["bodyLimit: 10\n", "port.yaml:1:12: bodyLimit: must be a whole number from 256 to 67108864, got 10"],
      ["redisPrefix: 'a{b}'\n", 'port.yaml:1:14: redisPrefix: must be a prefix without braces, got "a{b}"'],
    ];
    for (const [text, message] of cases) {
      write("port.yaml", text);
      expect(await inbox("--config", "port.yaml"), text).toEqual({ code: EXIT.usage, out: "", err: usage(message) });
    }
  });

  it("refuses bad flags with exit 2, and a config file it cannot read with exit 1", async () => {
    expect((await inbox("--store", "postgres://x")).err).toBe(
      usage('--store takes sqlite:PATH or redis://HOST:PORT[/DB], got "postgres://x"'),
    );
    expect((await inbox("--port", "99999")).err).toBe(usage("--port takes a port from 0 to 65535, got 99999"));
    expect((await inbox("--port", "1e3")).code).toBe(EXIT.usage);
    expect((await inbox("--prot", "1")).err).toBe(usage('unknown option "--prot" (did you mean --port?)'));
    expect((await inbox("--webhook-preset", "slack")).err).toBe(usage("--webhook-preset needs --webhook URL"));
    expect((await inbox("--webhook", "http://h.example.com", "--webhook-preset", "slak")).err).toBe(
      usage('--webhook-preset takes json or slack, got "slak" (did you mean slack?)'),
    );
    expect((await inbox("--webhook", "file:///etc/passwd")).code).toBe(EXIT.usage);
    expect((await inbox("--base-url", "javascript:alert(1)")).code).toBe(EXIT.usage);
    expect((await inbox("--host", "a b")).code).toBe(EXIT.usage);
    expect((await inbox("serve")).err).toBe(usage('unknown command "serve"'));
    expect(await inbox("--config", "missing.yaml")).toEqual({
      code: EXIT.failure,
      out: "",
      err: expect.stringMatching(/^toolware: inbox: cannot read the config file missing\.yaml: ENOENT/),
    });
  });

  it("fails to start without keys, exit 1, naming where it looked", async () => {
    vi.stubEnv(KEYS_ENV, "");
    write("quiet.yaml", `store: "sqlite:q.db"\nport: 0\n`);
    expect(await inbox("--config", "quiet.yaml")).toEqual({
      code: EXIT.failure,
      out: "",
      err: `toolware: inbox: no signing keys from the environment variable ${KEYS_ENV} (see docs/inbox.md, Keys): toolware/inbox: the environment variable ${KEYS_ENV} is not set\n`,
    });
    write("keys.json", '{"keys": []}');
    expect((await inbox("--config", "quiet.yaml", "--keys", "keys.json")).err).toMatch(
      new RegExp(`^toolware: inbox: no signing keys from ${join(dir, "keys.json").replaceAll("/", "\\/")}`),
    );
  });

  it("fails to start on a webhook without its secret, exit 1, and closes what it opened", async () => {
    vi.stubEnv(KEYS_ENV, KEYS);
    write(
      "hook.yaml",
      `store: "sqlite:hook.db"\nport: 0\nwebhooks:\n  - url: http://127.0.0.1:9/x\n    secretEnv: HOOK_SECRET_FOR_TEST\n`,
    );
    expect(await inbox("--config", "hook.yaml")).toEqual({
      code: EXIT.failure,
      out: "",
      err: "toolware: inbox: the webhook to http://127.0.0.1:9/x needs its secret in the environment variable HOOK_SECRET_FOR_TEST (32 characters or more)\n",
    });
  });

  it("never fails as a bug on a hostile config file: exit 1 or 2, never 0 or 3", async () => {
    vi.stubEnv(KEYS_ENV, "");
    const key = fc.oneof(fc.constantFrom(...CONFIG_KEYS), fc.string({ maxLength: 12 }));
    const value = fc.oneof(fc.json(), fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.dictionary(key, value).map((o) => JSON.stringify(o)),
          fc.string(),
        ),
        async (text) => {
          const name = `fuzz-${n++}.yaml`;
          write(name, text);
          const run = await inbox("--config", name, "--store", "sqlite::memory:", "--port", "0");
          expect([EXIT.failure, EXIT.usage], run.err).toContain(run.code);
          expect(run.out).toBe("");
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("toolware inbox --help", () => {
  it("lists every flag, the approver commands and the exit codes", async () => {
    const help = await inbox("--help");
    expect(help.code).toBe(0);
    for (const flag of ["--config FILE", "--store SPEC", "--host HOST", "--port N", "--base-url URL", "--keys FILE"]) {
      expect(help.out).toContain(flag);
    }
    expect(help.out).toMatch(
      /--audit FILE[\s\S]*--webhook URL[\s\S]*--webhook-preset json\|slack[\s\S]*--secure-cookie/,
    );
    expect(help.out).toMatch(/\n {2}approver {2}add, list and remove the inbox's approvers/);
    expect(help.out).toMatch(
      /\n {2}1 {2}the inbox could not start: no keys, a store or audit file it cannot open, a port in use\n/,
    );
    expect((await inbox("approver", "add", "--help")).out).toMatch(/--role ROLE\[,ROLE…\]/);
  });
});
