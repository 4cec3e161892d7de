export { startTestModelServer } from './start-test-model-server.js';
export type { TestModelServer, TestModelServerOptions } from './start-test-model-server.js';
export { reply } from './reply.js';
export type { FunctionCallSpec, FunctionCallsOptions, ReplyOptions, ToolSearchCallSpec } from './reply.js';
export type {
  CaptureStepReply,
  ErrorEventStepReply,
  HttpErrorStepReply,
  OutputItemSpec,
  RecordedRequest,
  ResponseStepReply,
  ScriptStep,
  StepContext,
  StepReply,
  UsageOptions,
} from './step-reply.js';
export { createRequestValidator, instancePathToParam } from './request-validator.js';
export type { RequestValidator, RequestValidatorOptions } from './request-validator.js';
export { createResponsesRequestValidator, sharedResponsesRequestValidator } from './create-responses-request-validator.js';
export type { ResponsesRequestValidator } from './create-responses-request-validator.js';
export { responsesRequestSchema } from './responses-request-schema.js';
export type { JsonSchema } from './json-schema-builders.js';
export { officialOpenapiDocument } from './official-openapi-document.js';
export type { OfficialOpenapiDocument } from './official-openapi-document.js';
export { checkRequestSemantics } from './check-request-semantics.js';
export { checkStrictFunctionTools } from './check-strict-function-tools.js';
export type { ApiErrorBody } from './api-error.js';
export { functionCallOutputs, lastUserText } from './request-helpers.js';
export type { FunctionCallOutputItem } from './request-helpers.js';
export { isProcessAlive, waitFor } from './process-probes.js';
export { distStaleReason } from './dist-stale-reason.js';
export { readmeExample, runReadmeExample } from './readme-example.js';
export type { RunReadmeExampleOptions } from './readme-example.js';
export { buildResponse } from './build-response.js';
export type { BuildResponseOptions, ResponseObject } from './build-response.js';
export { responseStreamEvents } from './stream-events.js';
export type { StreamEvent } from './stream-events.js';
export { TestkitError } from './testkit-error.js';
export { contextLengthExceeded, estimateTokens } from './context-window.js';
export { checkItemReferences } from './check-item-references.js';
export { readStreamCapture, STREAM_CAPTURES, streamCapture, streamCapturePath } from './stream-captures.js';
export type { StreamCaptureName } from './stream-captures.js';
