import type { GuardToolsOptions } from "@toolware/ai-sdk";
import type { Tool } from "@toolware/core";
import { type ToolExecutionOptions, tool } from "ai";
import { z } from "zod";
import { allTools, deleteFile, fetchProfile, getWeather, readFile, sendEmail, webSearch } from "./tools.js";

/** Runs one of the demo's own tools for the AI SDK, with the same text as the scripted demo gets. */
async function run<I extends object, O>(own: Tool<I, O>, input: I, options: ToolExecutionOptions) {
  const raw = await own.execute(input, {
    callId: options.toolCallId,
    // guardTools always passes toolware's signal; a fresh one only for an unguarded call.
    signal: options.abortSignal ?? new AbortController().signal,
  });
  return own.formatResult === undefined ? raw : own.formatResult(raw);
}

const path = z.object({ path: z.string() });

/**
 * The crew's tools as the AI SDK sees them: the demo's implementations, keyed by the same names,
 * with the schema a real model needs (`run` ties each schema to its tool's input type).
 */
export const sdkTools = {
  read_file: tool({ description: readFile.description, inputSchema: path, execute: (i, o) => run(readFile, i, o) }),
  delete_file: tool({
    description: deleteFile.description,
    inputSchema: path,
    execute: (i, o) => run(deleteFile, i, o),
  }),
  web_search: tool({
    description: webSearch.description,
    inputSchema: z.object({ query: z.string() }),
    execute: (i, o) => run(webSearch, i, o),
  }),
  fetch_profile: tool({
    description: fetchProfile.description,
    inputSchema: z.object({ id: z.string() }),
    execute: (i, o) => run(fetchProfile, i, o),
  }),
  send_email: tool({
    description: sendEmail.description,
    inputSchema: z.object({ to: z.string(), subject: z.string() }),
    execute: (i, o) => run(sendEmail, i, o),
  }),
  get_weather: tool({
    description: getWeather.description,
    inputSchema: z.object({ city: z.string() }),
    execute: (i, o) => run(getWeather, i, o),
  }),
};

/**
 * toolware's metadata of those tools (tags, destructive), from the demo's own definitions: the SDK's
 * tools carry none, and guards such as the junior's `{ tag: "destructive" }` deny match on it.
 */
export const sdkToolInfo: GuardToolsOptions<keyof typeof sdkTools>["tools"] = Object.fromEntries(
  allTools.map((t) => [t.name, { tags: t.tags, destructive: t.destructive }]),
);
