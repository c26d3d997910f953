/**
 * The Web API client the adapter answers with. 429s are not waited out here
 * (`rejectRateLimitedCalls`) and nothing is retried (`retries: 0`): the core's one
 * retry rule (platform-retry.ts) decides, and may skip a progress render instead.
 */
import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from '../../src/contract.js';
import { boltLogger } from './bolt-logger.js';

/** Slack's Web API. */
export const DEFAULT_SLACK_API_URL = 'https://slack.com/api/';
/** One Web API call that has not answered by then is treated as unreachable (and retried by the core). */
export const WEB_API_TIMEOUT_MS = 30_000;

/** SLACK_API_URL with the trailing slash web-api needs to join method names. */
export function normalizeApiUrl(apiUrl: string | undefined): string {
  return `${(apiUrl ?? DEFAULT_SLACK_API_URL).replace(/\/+$/, '')}/`;
}

export function webClientOptions(apiUrl: string | undefined, logger: Logger): WebClientOptions {
  return {
    slackApiUrl: normalizeApiUrl(apiUrl),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: WEB_API_TIMEOUT_MS,
    logger: boltLogger(logger),
  };
}

export function createWebClient(token: string, apiUrl: string | undefined, logger: Logger): WebClient {
  return new WebClient(token, webClientOptions(apiUrl, logger));
}
