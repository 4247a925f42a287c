import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

type Id = string | number;
type OnMessage = Transport["onmessage"];
type OnClose = Transport["onclose"];

/** The server's answer to a forwarded `tools/call`, or the guard's answer to the caller. @internal */
export type Answer =
  | { readonly result: unknown }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

/** Sends the call on (its params as the chain left them) and resolves with the server's answer. @internal */
export type Forward = (params: Record<string, unknown>, signal: AbortSignal) => Promise<Answer>;

/** What a guarded client does at the protocol level. @internal */
export interface WireGuard {
  /** Runs one outgoing `tools/call` through the chain; never rejects. */
  call(params: unknown, forward: Forward, signal: AbortSignal): Promise<Answer>;
  /** Told every `tools/list` result the server sends, whoever asked for it. */
  listed(result: unknown): void;
}

const views = new WeakSet<object>();

/** Whether a transport is one {@link guardTransport} made. @internal */
export function isGuardedTransport(transport: unknown): boolean {
  return typeof transport === "object" && transport !== null && views.has(transport);
}

function has(message: object, key: string): boolean {
  return Object.hasOwn(message, key);
}

const CLOSED = { error: { code: -32000, message: "Connection closed" } } as const;

/**
 * The transport as a guarded client sees it. Every request the client's protocol sends goes out
 * through `send`, whichever method built it (`callTool` on the instance or the prototype, `request`,
 * `requestStream`, a queued task message), so a `tools/call` stops here, runs the chain, and the
 * protocol hears only the chain's answer. While a call's chain runs, no answer from the server
 * with that id reaches the protocol but the one to the call the chain itself sent.
 * @internal
 */
export function guardTransport(inner: Transport, guard: WireGuard): Transport {
  let deliver: OnMessage = inner.onmessage;
  let userClose: OnClose = inner.onclose;
  const waiting = new Map<Id, (answer: Answer) => void>();
  const running = new Map<Id, AbortController>();
  const cancelledByCaller = new Set<Id>();
  const lists = new Set<Id>();
  let generation = 0;

  const receive = (message: JSONRPCMessage, extra?: MessageExtraInfo): void => {
    if (has(message, "id") && !has(message, "method")) {
      const id = (message as { id: Id }).id;
      const waiter = waiting.get(id);
      if (waiter !== undefined) {
        waiting.delete(id);
        const m = message as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
        waiter(m.error === undefined ? { result: m.result } : { error: m.error });
        return;
      }
      // An answer the chain did not ask for, to a call the chain holds: a server guessing ids.
      if (running.has(id)) return;
      if (lists.delete(id) && has(message, "result")) guard.listed((message as { result: unknown }).result);
    }
    deliver?.(message, extra);
  };

  const closing = (): void => {
    generation++;
    for (const waiter of waiting.values()) waiter(CLOSED);
    waiting.clear();
    userClose?.();
  };

  const notifyCancel = (id: Id, reason: unknown): void => {
    const params = { requestId: id, reason: String(reason instanceof Error ? reason.message : reason) };
    inner.send({ jsonrpc: "2.0", method: "notifications/cancelled", params }).catch(() => {});
  };

  const start = (message: { id: Id; params?: unknown }, options: TransportSendOptions | undefined): void => {
    const id = message.id;
    const controller = new AbortController();
    const born = generation;
    running.set(id, controller);
    const forward: Forward = (params, signal) =>
      new Promise<Answer>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const onAbort = (): void => {
          if (!waiting.delete(id)) return;
          if (!cancelledByCaller.has(id)) notifyCancel(id, signal.reason);
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.set(id, (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        });
        inner.send({ ...(message as JSONRPCMessage), params } as JSONRPCMessage, options).catch((error: unknown) => {
          if (!waiting.delete(id)) return;
          signal.removeEventListener("abort", onAbort);
          reject(error);
        });
      });
    guard
      .call(message.params, forward, controller.signal)
      .catch((error: unknown) => ({ error: { code: -32603, message: String(error) } }))
      .then((answer) => {
        running.delete(id);
        // The protocol has given up on a call its caller cancelled, or on a closed connection.
        if (cancelledByCaller.delete(id) || born !== generation) return;
        deliver?.({ jsonrpc: "2.0", id, ...answer } as JSONRPCMessage);
      });
  };

  const send = (message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> => {
    if (has(message, "method")) {
      const m = message as { method: string; id?: Id; params?: { requestId?: Id; reason?: unknown } };
      if (m.id !== undefined && m.method === "tools/call") {
        start(m as { id: Id; params?: unknown }, options);
        return Promise.resolve();
      }
      if (m.id !== undefined && m.method === "tools/list") lists.add(m.id);
      if (m.id === undefined && m.method === "notifications/cancelled" && m.params?.requestId !== undefined) {
        const controller = running.get(m.params.requestId);
        if (controller !== undefined) {
          cancelledByCaller.add(m.params.requestId);
          controller.abort(m.params.reason);
        }
      }
    }
    return inner.send(message, options);
  };

  if (inner.onmessage !== undefined) inner.onmessage = receive;
  if (inner.onclose !== undefined) inner.onclose = closing;
  const view = new Proxy(inner, {
    get(target, key) {
      if (key === "send") return send;
      if (key === "onmessage") return deliver;
      if (key === "onclose") return userClose;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(target, key, value) {
      if (key === "onmessage") {
        deliver = value as OnMessage;
        target.onmessage = value === undefined ? undefined : receive;
        return true;
      }
      if (key === "onclose") {
        userClose = value as OnClose;
        target.onclose = closing;
        return true;
      }
      // Replacing `send` on the guarded view would send around the chain.
      if (key === "send") return false;
      return Reflect.set(target, key, value, target);
    },
    defineProperty(target, key, descriptor) {
      if (key === "send" || key === "onmessage" || key === "onclose") return false;
      return Reflect.defineProperty(target, key, descriptor);
    },
  });
  views.add(view);
  return view;
}
