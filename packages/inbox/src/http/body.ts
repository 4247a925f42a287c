import type { Context } from "hono";
import { fail } from "./respond.js";

/** Reads a JSON object body of at most `limit` bytes; a Response is the refusal. @internal */
export async function jsonBody(c: Context, limit: number): Promise<Record<string, unknown> | Response> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return fail(c, 415, "TOOLWARE_INBOX_INVALID", "the body must be application/json");
  }
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > limit) return tooLarge(c, limit);
  const bytes = await readUpTo(c.req.raw, limit);
  if (bytes === undefined) return tooLarge(c, limit);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return fail(c, 400, "TOOLWARE_INBOX_INVALID", "the body is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return fail(c, 400, "TOOLWARE_INBOX_INVALID", "the body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/** Reads at most `limit` bytes; undefined past it (a chunked body without a length is never buffered whole). @internal */
export async function readUpTo(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

function tooLarge(c: Context, limit: number): Response {
  return fail(c, 413, "TOOLWARE_INBOX_TOO_LARGE", `the body is larger than ${limit} bytes`);
}

/** Refuses keys the route does not know, so a typo never drops a field silently. @internal */
export function unknownKey(body: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  return Object.keys(body).find((k) => !allowed.includes(k));
}
