export {
  type ApprovalChannel,
  type GatewayApprovalCall,
  type GatewayApprovalsOptions,
  gatewayApprovals,
} from "./approvals.js";
export { gatewayCall, gatewayElicitation } from "./context.js";
export type {
  ExposedTool,
  Gateway,
  GatewayCallInfo,
  GatewayEvent,
  GatewayListener,
  GatewayOptions,
  GatewaySession,
  HttpUpstreamConfig,
  ListenOptions,
  RestartOptions,
  StdioUpstreamConfig,
  UpstreamBase,
  UpstreamConfig,
} from "./contract.js";
export { createGateway } from "./gateway.js";
export {
  GATEWAY_ATTR,
  type GatewayLogFields,
  type GatewayLogger,
  gatewayAuditContext,
  gatewayLog,
  gatewaySpanAttributes,
} from "./observe.js";
