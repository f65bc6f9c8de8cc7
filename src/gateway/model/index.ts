// The model gateway: the providers' wire formats in front of Ladder's model layer.
export { startModelGateway, DEFAULT_MAX_BODY_BYTES } from './server.ts';
export { namespacedName } from './responses.ts';
export type { AnswerOptions, GatewayRequest, ModelGateway, ModelGatewayOptions, WireFormat } from './types.ts';
