import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { Inbox, InboxEvent } from "../contract.js";

function summary(event: InboxEvent): string {
  if (event.type === "grant") return `grant ${event.grant.toolName} by ${event.grant.grantedBy}`;
  const r = event.request;
  if (event.type === "request") return `${r.binding.toolName} from ${r.caller} waits for approval`;
  if (event.type === "vote") return `${r.binding.toolName}: one approval of two`;
  const who = r.decision?.approvers.join(", ") || "system";
  return `${r.binding.toolName} from ${r.caller}: ${r.state} by ${who}`;
}

/** Server-sent events from the inbox's feed: a summary and the ids, never the arguments. @internal */
export function eventStream(c: Context, inbox: Inbox, streams: Set<() => void>): Response {
  return streamSSE(c, async (stream) => {
    let end: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    streams.add(end);
    const off = inbox.subscribe((event) => {
      const id = event.type === "grant" ? event.grant.id : event.request.id;
      const state = event.type === "grant" ? "granted" : event.request.state;
      void stream.writeSSE({ event: event.type, data: JSON.stringify({ id, state, summary: summary(event) }) });
    });
    stream.onAbort(end);
    try {
      await stream.writeSSE({ event: "ready", data: "{}" });
      await ended;
    } finally {
      off();
      streams.delete(end);
    }
  });
}
