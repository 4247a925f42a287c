import { messageOf, toolwareCode } from "@toolware/core";

/** Why a call failed before its chain could start: the message, its cause and its code. @internal */
export function failureText(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? `: ${messageOf(error.cause)}` : "";
  return `${messageOf(error)}${cause} (${toolwareCode(error) ?? "TOOLWARE_BIND_FAILED"})`;
}
