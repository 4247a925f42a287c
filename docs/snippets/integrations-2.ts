// snippet: integrations-2.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { validate } from "@toolware/packs/validate";
import { z } from "zod";

// Any Standard Schema (zod, valibot, arktype, …) per tool name. The schema's output is written back in place.
const schemas = {
  send_email: z.object({
    to: z.email(),
    subject: z.string().min(1).max(200),
    body: z.string().max(10_000),
  }),
  web_search: z.object({ query: z.string().min(3), limit: z.coerce.number().int().min(1).max(20).default(5) }),
};

const hooks = new ToolHooks();
hooks.use(
  validate({
    schemas,
    requireSchema: true, // tools without a schema are blocked instead of passing unchecked
    message: ({ toolName, summary }) =>
      `${toolName} was called with invalid arguments (${summary}); fix them and retry`,
  }),
);

const sendEmail = defineTool({ name: "send_email", execute: (input: z.infer<typeof schemas.send_email>) => input.to });
const deleteFile = defineTool({ name: "delete_file", execute: () => "deleted" });

console.log((await hooks.invoke(sendEmail, { to: "not-an-address", subject: "", body: "hi" })).reason);
// send_email was called with invalid arguments (to: Invalid email address; subject: Too small: …); fix them and retry
console.log((await hooks.invoke(sendEmail, { to: "ada@example.com", subject: "Hi", body: "…" })).result); // ada@example.com
console.log((await hooks.invoke(deleteFile, {})).reason); // no input schema is registered for delete_file

// Your own hook can use any Standard Schema directly too: "~standard".validate() is the whole interface.
const result = await schemas.web_search["~standard"].validate({ query: "tool hooks", limit: "3" });
console.log(result.issues === undefined ? result.value : result.issues); // { query: 'tool hooks', limit: 3 }
