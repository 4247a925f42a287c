// snippet: adapters-binding.ts
import { approvalAnswers, bindApproval, digestArguments } from "@toolware/core";

const binding = bindApproval("send_email", "call_0", { to: "ann@example.com" });
console.log(binding.digest === digestArguments({ to: "ann@example.com" })); // true
console.log(approvalAnswers(binding, "send_email", "call_0", { to: "mallory@example.com" })); // false: ask again
