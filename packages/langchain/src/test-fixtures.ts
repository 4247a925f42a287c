import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";

/** A fake model that asks for these tool calls, then answers "done". */
export function modelCalling(calls: Array<{ name: string; args: Record<string, unknown>; id: string }>) {
  return fakeModel().respondWithTools(calls).respond(new AIMessage("done"));
}

/** The tool messages the model received on its second turn (what it read back). */
export function toolMessagesSeen(model: ReturnType<typeof fakeModel>, turn = 1): ToolMessage[] {
  const call = model.calls[turn];
  if (call === undefined) throw new Error(`the model had no turn ${turn}`);
  return call.messages.filter((m: BaseMessage): m is ToolMessage => ToolMessage.isInstance(m));
}
