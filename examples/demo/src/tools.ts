import { defineTool } from "@toolware/core";

/** A tiny in-memory workspace the demo's file tools act on. */
export const files = new Map<string, string>([
  ["notes/plan.md", "# Plan\nShip toolware 0.1 on Friday."],
  ["notes/contacts.md", "Ada Lovelace <ada@example.com>"],
]);

export const readFile = defineTool({
  name: "read_file",
  description: "Read a file of the workspace",
  execute: ({ path }: { path: string }) => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`no such file: ${path}`);
    return text;
  },
});

export const deleteFile = defineTool({
  name: "delete_file",
  description: "Delete a file of the workspace",
  destructive: true,
  tags: ["destructive", "fs"],
  execute: ({ path }: { path: string }) => {
    files.delete(path);
    return `deleted ${path}`;
  },
});

export const webSearch = defineTool({
  name: "web_search",
  description: "Search the web (offline fixture)",
  execute: ({ query }: { query: string }) => [
    { title: `${query} — an overview`, url: "https://example.org/a" },
    { title: `Why ${query} matters`, url: "https://example.org/b" },
  ],
  formatResult: (hits) => hits.map((h) => `- ${h.title} (${h.url})`).join("\n"),
});

export const fetchProfile = defineTool({
  name: "fetch_profile",
  description: "Fetch a customer profile from the CRM (returns secrets the agent must not see)",
  execute: ({ id }: { id: string }) => ({
    id,
    name: "Grace Hopper",
    email: "grace@example.com",
    apiKey: "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e",
  }),
});

export const sendEmail = defineTool({
  name: "send_email",
  description: "Send an email",
  tags: ["external"],
  execute: ({ to, subject }: { to: string; subject: string }) => `sent "${subject}" to ${to}`,
});

export const getWeather = defineTool({
  name: "get_weather",
  description: "Weather for a city (slow upstream API)",
  execute: async ({ city }: { city: string }) => {
    await new Promise((r) => setTimeout(r, 20));
    return { city, tempC: 21, sky: "clear" };
  },
});

export const allTools = [readFile, deleteFile, webSearch, fetchProfile, sendEmail, getWeather];
