import { HumanInputUnavailableError, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { createGateway, gatewayCall, gatewayElicitation } from "./index.js";

const hooks = new ToolHooks();
const up = { name: "x", command: "node" };

describe("createGateway() refuses what would quietly weaken it", () => {
  it.each([
    [null, /must be an object/],
    [{ upstreams: [up], hooks, policy: {} }, /policy pack/],
    [{ upstreams: [up], hooks, hideDenied: "no" }, /hideDenied/],
    [{ upstreams: [up], hooks, separator: "//" }, /separator/],
    [{ upstreams: [up], hooks, serverInfo: { name: "g" } }, /serverInfo/],
    [{ upstreams: [up], hooks, serverInfo: { name: "g", version: "1", extra: 1 } }, /unknown option `extra`/],
    [{ upstreams: [up], hooks, onEvent: "log" }, /onEvent/],
    [{ upstreams: ["node"], hooks }, /upstreams\[0\]/],
    [{ upstreams: [{ name: "bad name", command: "n" }], hooks }, /name/],
    [{ upstreams: [{ ...up, prefix: "a b" }], hooks }, /prefix/],
    [{ upstreams: [{ ...up, command: "" }], hooks }, /command/],
    [{ upstreams: [{ ...up, args: [1] }], hooks }, /args/],
    [{ upstreams: [{ ...up, env: { A: 1 } }], hooks }, /env/],
    [{ upstreams: [{ ...up, cwd: 1 }], hooks }, /cwd/],
    [{ upstreams: [{ name: "h", url: "not a url" }], hooks }, /not a URL/],
    [{ upstreams: [{ name: "h", url: "http://h", headers: { a: 1 } }], hooks }, /headers/],
  ])("%j", (options, message) => {
    expect(() => createGateway(options as never)).toThrow(message);
  });

  it("listen() refuses bad hosts, ports, lists and limits", async () => {
    const gw = createGateway({ upstreams: [up], hooks });
    for (const [options, message] of [
      ["x", /object/],
      [{ host: "" }, /host/],
      [{ port: 70000 }, /port/],
      [{ allowedHosts: "localhost" }, /allowedHosts/],
      [{ allowedOrigins: [1] }, /allowedOrigins/],
      [{ maxBodyBytes: 10 }, /maxBodyBytes/],
    ] as const) {
      await expect(gw.listen(options as never)).rejects.toThrow(message);
    }
    await expect(gw.tools()).rejects.toThrow(/start\(\)/);
    await gw.close();
  });
});

describe("gatewayElicitation() and gatewayCall() outside a gateway call", () => {
  it("refuses unknown options and bad timeouts", () => {
    expect(() => gatewayElicitation({ timeout: 5 } as never)).toThrow(/unknown option `timeout`/);
    expect(() => gatewayElicitation({ timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => gatewayElicitation(null as never)).toThrow(/object/);
  });

  it("fails closed: a question asked outside a gateway call is unavailable, and gatewayCall is undefined", async () => {
    const ask = gatewayElicitation();
    const request = {
      prompt: "ok?",
      defaultMessage: undefined,
      toolName: "t",
      callId: "c",
      signal: new AbortController().signal,
    };
    await expect(ask(request)).rejects.toBeInstanceOf(HumanInputUnavailableError);
    expect(gatewayCall({ framework: undefined } as never)).toBeUndefined();
  });
});
