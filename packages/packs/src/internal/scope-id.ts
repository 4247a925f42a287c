import type { Agent, Crew } from "@toolware/core";

// The id of an agent or crew scope, shared by the packs that keep state per agent or crew (cache scope,
// loop-guard). No colon when there is none and "crew#" for a crew without a name: no role or name can
// then reach the state of another caller.

/** `agent:<role>`, or `agent` for calls without an agent. */
export function agentScopeId(agent: Agent | undefined): string {
  return agent === undefined ? "agent" : `agent:${agent.role}`;
}

/** `crew:<name>`, `crew#` for a crew without a name, or `crew` for calls without a crew. */
export function crewScopeId(crew: Crew | undefined): string {
  if (crew === undefined) return "crew";
  return crew.name === undefined ? "crew#" : `crew:${crew.name}`;
}
