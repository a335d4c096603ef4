import type { operations } from './openapi-types.ts';

/** An operation of the API by its `operationId`. */
export type OperationId = keyof operations;

type JsonContent<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body of an operation's success answer (200 or 201). */
export type Success<Id extends OperationId> = operations[Id]['responses'] extends infer Responses
  ? JsonContent<Responses[Extract<keyof Responses, 200 | 201>]>
  : never;

/** The JSON request body of an operation. */
export type RequestBody<Id extends OperationId> = operations[Id] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The query parameters of an operation (lists: filters plus `limit`, `starting_after`, `ending_before`). */
export type Query<Id extends OperationId> = operations[Id] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;
