import { closestKey } from "@toolware/core";
import { type GatewayEvent, gatewayLog } from "@toolware/gateway";
import type { PolicyEvent } from "@toolware/policy";
import pino from "pino";
import { type CommandIO, usageError } from "../kit.js";

const FORMATS = ["text", "json"] as const;

/** The structured log of `--log json`: every event one pino JSON line on stderr (stdout is the MCP channel). */
export interface JsonLog {
  /** A gateway or policy event. */
  event(event: GatewayEvent | PolicyEvent): void;
  /** A line of the command itself (listening, SIGHUP). */
  note(fields: Readonly<Record<string, unknown>>, message: string): void;
}

/**
 * `--log FORMAT`: `text` (the default, human lines) gives undefined; `json` gives a pino logger writing through
 * `io.err`, never stdout. Any other value is a usage error with the closest format.
 */
export function jsonLogFor(format: string | undefined, io: CommandIO): JsonLog | undefined {
  if (format === undefined || format === "text") return undefined;
  if (format !== "json") {
    const guess = closestKey(format, FORMATS);
    throw usageError(
      `--log takes text or json, got ${JSON.stringify(format)}${guess === undefined ? "" : ` (did you mean ${guess}?)`}`,
    );
  }
  const logger = pino({ name: "toolware-gateway" }, { write: (line: string) => io.err(line) });
  const event = gatewayLog(logger);
  return {
    event,
    note: (fields, message) => logger.info({ ...fields }, message),
  };
}
