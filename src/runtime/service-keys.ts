import { generateServiceKeys, type ServiceKeys } from '../service/index.js';
import type { StateStore } from '../state/index.js';
import type { Config } from '../config/index.js';

/** Where generated keys are kept, so a restart (or the CLI, on a shared Redis) finds the same ones. */
const GENERATED_KEYS = 'svc:generated-keys';

/**
 * The embedded service's keys: SERVICE_SECRET_KEY / SERVICE_SESSION_KEY when set,
 * otherwise keys generated once and kept in state. `generated` tells the caller to print them.
 */
export async function resolveServiceKeys(config: Config, state: StateStore): Promise<ServiceKeys & { generated: boolean }> {
  const { secretKey, sessionKey } = config.service;
  if (secretKey && sessionKey) return { secretKey, sessionKey, generated: false };
  const fresh = generateServiceKeys();
  await state.setIfAbsent(GENERATED_KEYS, JSON.stringify(fresh));
  const stored = JSON.parse((await state.get(GENERATED_KEYS)) ?? JSON.stringify(fresh)) as ServiceKeys;
  return { secretKey: secretKey ?? stored.secretKey, sessionKey: sessionKey ?? stored.sessionKey, generated: true };
}
