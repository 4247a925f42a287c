import type { ModelRequest } from "@openai/agents";

/** What a model reads on its next turn: the output of each function call, by call id. */
export function toolOutputs(request: ModelRequest | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(request?.input)) return out;
  for (const item of request.input) {
    if (item.type !== "function_call_result") continue;
    const o = item.output as { type?: string; text?: string } | string;
    out[item.callId] = typeof o === "string" ? o : (o.text ?? JSON.stringify(o));
  }
  return out;
}
