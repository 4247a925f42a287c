import { expect } from "vitest";
import { toolwareCode } from "./index.js";

/** The code of the TypeError `run` throws, or "no error" when it returns: argument checks compared by code. */
export function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return toolwareCode(error);
  }
  return "no error";
}
