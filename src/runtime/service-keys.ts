import { generateServiceKeys, type ServiceKeys } from '../service/index.js';
import type { StateStore } from '../state/index.js';
import type { Config } from '../config/index.js';

/** Where generated keys are kept, so a restart (or the CLI, on a shared Redis) finds the same ones. */
const GENERATED_KEYS = 'svc:generated-keys';

/** The command that prints the embedded service's keys; log lines name it instead of printing the keys. */
export const SERVICE_KEYS_COMMAND = 'chatbridge service keys';

/**
 * The embedded service's keys: SERVICE_SECRET_KEY / SERVICE_SESSION_KEY when set,
 * otherwise keys generated once and kept in state. `generated` is true only for the
 * call that created them (the first start on this Redis and key prefix).
 */
export async function resolveServiceKeys(
  config: Config,
  state: StateStore,
): Promise<ServiceKeys & { generated: boolean }> {
  const { secretKey, sessionKey } = config.service;
  if (secretKey && sessionKey) return { secretKey, sessionKey, generated: false };
  const fresh = generateServiceKeys();
  const generated = await state.setIfAbsent(GENERATED_KEYS, JSON.stringify(fresh));
  const stored = JSON.parse((await state.get(GENERATED_KEYS)) ?? JSON.stringify(fresh)) as ServiceKeys;
  return { secretKey: secretKey ?? stored.secretKey, sessionKey: sessionKey ?? stored.sessionKey, generated };
}

/**
 * Puts back the keys a running gateway uses when the state lost them (a Redis restarted
 * without persistence), so `chatbridge service keys` and admin commands read the same ones.
 */
export async function restoreServiceKeys(state: StateStore, keys: ServiceKeys): Promise<void> {
  await state.setIfAbsent(GENERATED_KEYS, JSON.stringify({ secretKey: keys.secretKey, sessionKey: keys.sessionKey }));
}

/** The keys as `chatbridge start` would use them, without generating any; undefined when none exist yet. */
export async function readServiceKeys(config: Config, state: StateStore): Promise<ServiceKeys | undefined> {
  const { secretKey, sessionKey } = config.service;
  if (secretKey && sessionKey) return { secretKey, sessionKey };
  const raw = await state.get(GENERATED_KEYS);
  if (raw === null) return undefined;
  const stored = JSON.parse(raw) as ServiceKeys;
  return { secretKey: secretKey ?? stored.secretKey, sessionKey: sessionKey ?? stored.sessionKey };
}
