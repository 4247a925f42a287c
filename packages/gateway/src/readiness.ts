import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { messageOf } from "@toolware/core";
import type { GatewayEvent, HttpUpstreamConfig, UpstreamConfig } from "./contract.js";

const PROBE_TIMEOUT_MS = 5_000;
// A flood of probes must not become a flood of sessions on the upstream.
const PROBE_CACHE_MS = 2_000;

async function probe(config: HttpUpstreamConfig): Promise<string | undefined> {
  const transport = new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: { ...(config.headers ?? {}) } },
  });
  const client = new Client({ name: "toolware-gateway-readyz", version: "0" });
  try {
    await client.connect(transport, { timeout: PROBE_TIMEOUT_MS });
    await transport.terminateSession().catch(() => undefined);
    return undefined;
  } catch (error) {
    return `upstream "${config.name}" is not reachable: ${messageOf(error).slice(0, 200)}`;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * What `/readyz` answers: not ready before `start()` and while closing, while a session's stdio upstream is
 * restarting or down (from the gateway's own events), or when an HTTP upstream does not answer `initialize`
 * (probed at most every 2 s). A stdio upstream no session uses is known good from `start()`. @internal
 */
export class Health {
  readonly #faults = new Map<string, string>();
  #probed: { at: number; answer: Promise<string | undefined> } | undefined;

  constructor(private readonly upstreams: readonly UpstreamConfig[]) {}

  observe(event: GatewayEvent): void {
    if (event.type === "upstream-restarting" || event.type === "upstream-down") {
      const what = event.type === "upstream-down" ? "is down" : "is restarting";
      this.#faults.set(`${event.session}\0${event.upstream}`, `upstream "${event.upstream}" ${what} (${event.reason})`);
    } else if (event.type === "upstream-restarted") {
      this.#faults.delete(`${event.session}\0${event.upstream}`);
    } else if (event.type === "session-closed") {
      for (const key of this.#faults.keys()) if (key.startsWith(`${event.session}\0`)) this.#faults.delete(key);
    }
  }

  async check(state: "not-started" | "started" | "closing"): Promise<string | undefined> {
    if (state === "not-started") return "the gateway has not started";
    if (state === "closing") return "the gateway is closing";
    for (const reason of this.#faults.values()) return reason;
    const now = Date.now();
    if (this.#probed === undefined || now - this.#probed.at > PROBE_CACHE_MS) {
      const http = this.upstreams.filter((u): u is HttpUpstreamConfig => "url" in u);
      const answer = Promise.all(http.map(probe)).then((reasons) => reasons.find((r) => r !== undefined));
      this.#probed = { at: now, answer };
    }
    return this.#probed.answer;
  }
}
