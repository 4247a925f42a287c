import type { ModelRequest } from "@openai/agents";

// Reads what the model saw; the model itself is the SDK's own ScriptedModel (@openai/agents/testing).

/** The function call outputs in one model request, by call id. */
export function toolOutputs(request: ModelRequest | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const input = request?.input;
  if (!Array.isArray(input)) return out;
  for (const item of input) {
    if (item.type === "function_call_result") {
      const o = item.output as unknown;
      const value =
        typeof o === "object" && o !== null && (o as { type?: string }).type === "text"
          ? (o as { text: string }).text
          : o;
      // Defined, not assigned: a call id such as "__proto__" stays an own key.
      Object.defineProperty(out, item.callId, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
}
