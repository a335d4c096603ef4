/**
 * `@id-verify/mock`: the offline id-verify API for MSW. Runtime-neutral: it never loads `setupWorker`
 * or `setupServer`; `@id-verify/mock/browser` and `@id-verify/mock/node` do. See mock/README.md.
 */
export { createMockApi, DEFAULT_MOCK_ORIGIN, type MockApi, type MockApiOptions } from './create-mock-api.ts';
export { MOCK_FIXTURES, type MockFixtures, seedMockFixtures } from './fixtures.ts';
export { API_PATHS, HOSTED_PAGE_PATHS, type MockHandlerOptions, mockHandlers } from './handlers.ts';
export {
  DEFAULT_FAILURE_CODE,
  type FailNextOptions,
  type FailureStatus,
  type ForcedOutcome,
  type ForceOutcomeOptions,
  type MockScenarios,
  type RequestMatcher,
  type ScenarioState,
} from './scenarios.ts';
export type { MockBackgroundOptions } from './background.ts';
