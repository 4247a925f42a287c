import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { messageOf } from "@toolware/core";
import type { GatewayEvent } from "./contract.js";
import { type RestartPolicy, restartDelay } from "./restart-policy.js";

type Message = JSONRPCMessage & { id?: RequestId; method?: string; params?: Record<string, unknown> };
type State = "up" | "restarting" | "down" | "closed";

const INTERNAL = "toolware-gateway-restart-";
const HANDSHAKE_TIMEOUT_MS = 60_000;
// The settings a client made on the old process that a new one would not know: sent again after a restart.
const REPLAYED = new Set(["logging/setLevel", "resources/subscribe"]);
const LIST_CHANGED = [
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/list_changed",
];

const isResponse = (m: Message) => m.id !== undefined && m.method === undefined;
const isRequest = (m: Message) => m.id !== undefined && m.method !== undefined;
// The SDK's line reader reports a line it cannot read as a SyntaxError (not JSON) or a schema error (not JSON-RPC).
const isGarbage = (error: unknown) =>
  error instanceof SyntaxError || Array.isArray((error as { issues?: unknown } | null)?.issues);

/** Who a supervised upstream reports to. @internal */
export interface Supervision {
  readonly session: string;
  readonly upstream: string;
  readonly policy: RestartPolicy;
  readonly emit: (event: GatewayEvent) => void;
}

/**
 * The transport of one session's stdio upstream, kept up: when the child exits or writes a line that is not
 * JSON-RPC (the stdio transport forbids it, and the stream cannot be trusted after), every request in flight is
 * answered at once (a `tools/call` with an error result naming the upstream), and a new child is started after a
 * backoff, initialized with the session's own `initialize`, and sent the session's log level and subscriptions again.
 * The client above never sees a close, so its guard, routes and annotation cache stay; it is told the lists
 * changed. A request made while the upstream is restarting or down is answered with an error at once. @internal
 */
export class SupervisedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #inner: Transport | undefined;
  #generation = 0;
  #state: State = "up";
  #established = false;
  #why: string | undefined;
  #init: Message | undefined;
  readonly #pending = new Map<RequestId, string>();
  readonly #asks = new Set<RequestId>();
  readonly #replay = new Map<string, Message>();
  readonly #internal = new Map<string, (reply: Message | Error) => void>();
  readonly #restarts: number[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #count = 0;

  constructor(
    private readonly make: () => Transport,
    private readonly sup: Supervision,
  ) {}

  /** `up`, `restarting`, `down` or `closed`. */
  get state(): State {
    return this.#state;
  }

  async start(): Promise<void> {
    await this.#wire(this.make()).start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as Message;
    if (isRequest(m)) {
      this.#remember(m);
      if (this.#state !== "up") return this.#refuse(m);
      this.#pending.set(m.id as RequestId, m.method as string);
    } else if (isResponse(m)) {
      // An answer to a request of a child that is gone would reach the new one under an id it never sent.
      if (!this.#asks.delete(m.id as RequestId)) return;
    } else if (this.#state !== "up") {
      return;
    }
    if (m.method === "notifications/initialized") this.#established = true;
    try {
      await this.#inner?.send(message, options);
    } catch (error) {
      // A request written to a child that just died is answered when its exit is seen.
      if (!(isRequest(m) && this.#pending.has(m.id as RequestId))) throw error;
    }
  }

  async close(): Promise<void> {
    if (this.#state === "closed") return;
    this.#state = "closed";
    clearTimeout(this.#timer);
    this.#generation++;
    const inner = this.#inner;
    this.#inner = undefined;
    for (const settle of this.#internal.values()) settle(new Error("closed"));
    await inner?.close().catch(() => undefined);
    this.onclose?.();
  }

  #wire(inner: Transport): Transport {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.#inner = inner;
    inner.onmessage = (message) => current() && this.#receive(message as Message);
    inner.onerror = (error) => {
      if (!current()) return;
      if (isGarbage(error)) return this.#fault(`wrote a line on stdout that is not JSON-RPC (${messageOf(error)})`);
      if (/ReadBuffer exceeded/.test(messageOf(error))) this.#why = "wrote a message over 10 MB on stdout";
      this.onerror?.(error);
    };
    inner.onclose = () => current() && this.#fault(this.#why ?? "exited");
    return inner;
  }

  #receive(m: Message): void {
    if (isResponse(m) && typeof m.id === "string" && m.id.startsWith(INTERNAL)) {
      this.#internal.get(m.id)?.(m);
      return;
    }
    if (isResponse(m)) this.#pending.delete(m.id as RequestId);
    else if (isRequest(m)) this.#asks.add(m.id as RequestId);
    this.onmessage?.(m);
  }

  #remember(m: Message): void {
    if (m.method === "initialize") this.#init = m;
    const uri = typeof m.params?.uri === "string" ? m.params.uri : "";
    if (REPLAYED.has(m.method as string)) this.#replay.set(`${m.method}\0${uri}`, m);
    if (m.method === "resources/unsubscribe") this.#replay.delete(`resources/subscribe\0${uri}`);
  }

  #text(reason: string): string {
    return `upstream "${this.sup.upstream}" ${reason}`;
  }

  #answer(id: RequestId, method: string, text: string): void {
    const reply =
      method === "tools/call"
        ? { jsonrpc: "2.0" as const, id, result: { content: [{ type: "text", text }], isError: true } }
        : { jsonrpc: "2.0" as const, id, error: { code: -32603, message: text } };
    this.onmessage?.(reply as JSONRPCMessage);
  }

  #refuse(m: Message): void {
    const now = Date.now();
    const recent = this.#restarts.filter((t) => now - t < this.sup.policy.windowMs).length;
    // Down with room in the window again: this call finds it restarting, the next one finds it back.
    if (this.#state === "down" && recent < this.sup.policy.maxRestarts) this.#schedule("was down");
    const text =
      this.#state === "down"
        ? this.#text(`is down (restarted ${recent} times within ${this.sup.policy.windowMs} ms); the call was not made`)
        : this.#text("is restarting; the call was not made, try again shortly");
    queueMicrotask(() => this.#answer(m.id as RequestId, m.method as string, text));
  }

  #fault(reason: string): void {
    if (this.#state === "closed") return;
    this.#why = undefined;
    const inner = this.#inner;
    this.#inner = undefined;
    this.#generation++;
    void inner?.close().catch(() => undefined);
    for (const settle of this.#internal.values()) settle(new Error(reason));
    if (this.#state !== "up") return;
    const text = this.#established
      ? this.#text(`${reason} while the call was in flight; the call did not complete`)
      : this.#text(reason);
    for (const [id, method] of this.#pending) this.#answer(id, method, text);
    this.#pending.clear();
    for (const requestId of this.#asks) {
      this.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: text } });
    }
    this.#asks.clear();
    if (!this.#established) {
      // Never initialized: the session's connect fails with the reason instead.
      this.#state = "closed";
      this.onclose?.();
      return;
    }
    this.#schedule(reason);
  }

  #schedule(reason: string): void {
    const now = Date.now();
    const { policy, emit, session, upstream } = this.sup;
    const recent = this.#restarts.filter((t) => now - t < policy.windowMs);
    this.#restarts.splice(0, this.#restarts.length, ...recent);
    if (recent.length >= policy.maxRestarts) {
      this.#state = "down";
      emit({ type: "upstream-down", session, upstream, reason, restarts: recent.length });
      return;
    }
    const delayMs = restartDelay(policy, recent.length);
    const attempt = recent.length + 1;
    this.#restarts.push(now);
    this.#state = "restarting";
    emit({ type: "upstream-restarting", session, upstream, reason, attempt, delayMs });
    this.#timer = setTimeout(() => void this.#restart(attempt), delayMs);
  }

  async #restart(attempt: number): Promise<void> {
    if (this.#state !== "restarting") return;
    try {
      const inner = this.#wire(this.make());
      await inner.start();
      const init = this.#init as Message;
      const reply = await this.#request(inner, "initialize", init.params);
      if ("error" in reply) throw new Error(`initialize failed: ${messageOf((reply as { error: unknown }).error)}`);
      await inner.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      for (const m of this.#replay.values()) await this.#request(inner, m.method as string, m.params);
      if (this.#state !== "restarting") return;
      this.#state = "up";
      this.sup.emit({ type: "upstream-restarted", session: this.sup.session, upstream: this.sup.upstream, attempt });
      for (const method of LIST_CHANGED) this.onmessage?.({ jsonrpc: "2.0", method });
    } catch (error) {
      if (this.#state !== "restarting") return;
      const inner = this.#inner;
      this.#inner = undefined;
      this.#generation++;
      await inner?.close().catch(() => undefined);
      this.#schedule(`could not be restarted: ${messageOf(error)}`);
    }
  }

  #request(inner: Transport, method: string, params: unknown): Promise<Message> {
    const id = `${INTERNAL}${++this.#count}`;
    return new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(
        () => settle(new Error(`no answer to ${method} within ${HANDSHAKE_TIMEOUT_MS} ms`)),
        HANDSHAKE_TIMEOUT_MS,
      );
      const settle = (reply: Message | Error) => {
        clearTimeout(timer);
        this.#internal.delete(id);
        if (reply instanceof Error) reject(reply);
        else resolve(reply);
      };
      this.#internal.set(id, settle);
      inner
        .send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) } as JSONRPCMessage)
        .catch(settle);
    });
  }
}
