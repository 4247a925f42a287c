import * as cedar from "@cedar-policy/cedar-wasm/nodejs";
import { type CedarCall, compileCedar } from "@toolware/policy";
import { type Cases, runCase, type Subject } from "../harness.js";
import { direct } from "../references.js";

// A Cedar decision through @toolware/policy's engine against a bare cedar-wasm call of the same request on a
// pre-parsed policy set (preparsePolicySet once, then statefulIsAuthorized), in one process.

const POLICIES = `@id("juniors-cannot-delete") @reason("junior agents cannot delete files")
forbid(principal == Agent::"junior", action, resource == Tool::"delete_file");
@id("no-dot-dot") @reason("paths stay inside the work folder")
forbid(principal, action, resource) when { context has path && context.path like "*..*" };
@id("writers-write-srv")
permit(principal in Crew::"writers", action, resource in Tag::"fs") when { context has path && context.path like "/srv/*" };
@id("ask-before-mail") @requireApproval
permit(principal, action, resource in Tag::"mail");
@id("readers-read")
permit(principal, action, resource) when { resource.readOnly };
@id("destructive-needs-crew")
forbid(principal is Caller, action, resource) when { resource.destructive };
`;

const CALL: CedarCall = {
  tool: "write_file",
  agent: "writer",
  crew: "writers",
  tags: ["fs"],
  annotations: { destructiveHint: true },
  args: { path: "/srv/data/report.txt", mode: "overwrite" },
};

// The request the engine builds for CALL (its context keeps only `path`: the policies read nothing else).
const REQUEST: Omit<Parameters<typeof cedar.statefulIsAuthorized>[0], "preparsedPolicySetId"> = {
  principal: { type: "Agent", id: "writer" },
  action: { type: "Action", id: "call" },
  resource: { type: "Tool", id: "write_file" },
  context: { path: "/srv/data/report.txt" },
  entities: [
    { uid: { type: "Agent", id: "writer" }, attrs: {}, parents: [{ type: "Crew", id: "writers" }] },
    {
      uid: { type: "Tool", id: "write_file" },
      attrs: {
        name: "write_file",
        tags: ["fs"],
        readOnly: false,
        destructive: true,
        idempotent: false,
        openWorld: true,
      },
      parents: [{ type: "Tag", id: "fs" }],
    },
  ],
};

async function subjects(): Promise<Subject[]> {
  const engine = await compileCedar({ file: "bench.cedar", policies: POLICIES });
  const prepared = cedar.preparsePolicySet("bench-bare", { staticPolicies: POLICIES });
  if (prepared.type !== "success") throw new Error("the bench policies do not parse");
  const call = { ...REQUEST, preparsedPolicySetId: "bench-bare" };
  return [
    direct,
    {
      id: "cedar-bare",
      label: "bare cedar-wasm `statefulIsAuthorized` on a pre-parsed set, request built once",
      hooks: 0,
      run: () => cedar.statefulIsAuthorized(call),
      check: (value) => {
        const answer = value as ReturnType<typeof cedar.statefulIsAuthorized>;
        if (answer.type !== "success" || answer.response.decision !== "allow") throw new Error(JSON.stringify(answer));
      },
    },
    {
      id: "cedar-decide",
      label: "`engine.decide(call)` of `compileCedar` (builds the request from the call, maps the answer)",
      hooks: 0,
      run: () => engine.decide(CALL),
      check: (value) => {
        const decision = value as ReturnType<typeof engine.decide>;
        if (decision.effect !== "allow" || decision.policies[0] !== "writers-write-srv")
          throw new Error(JSON.stringify(decision));
      },
    },
  ];
}

const cases: Cases = { decide: subjects };

await runCase("cedar", cases, { rounds: 20, roundMs: 60 }, [
  "cedar: 6 policies (2 forbids with conditions, 3 permits, 1 with @requireApproval); the call is allowed by `writers-write-srv` (an agent in a crew, a tool in a tag, a path condition).",
  "The bare subject sends the request the engine builds for that call, built once; the engine builds it per call from { tool, agent, crew, tags, annotations, args }, converts the arguments (only those the policies read) and names the deciding policies by @id.",
]);
