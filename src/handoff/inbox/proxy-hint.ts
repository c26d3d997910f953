/**
 * A gateway behind a reverse proxy it was not told to trust sees every request come from the proxy: every operator
 * shares one address (the sign-in limit tells them apart by X-Forwarded-For's last entry only), and the cookie's Secure
 * flag and the page's origin miss the https the browser used. Said in the log at the first request that carries
 * X-Forwarded-For, at start and by `chatbridge doctor` when the configuration shows it.
 */
import type { Config } from '../../config/index.js';

export const UNTRUSTED_PROXY_WARNING =
  'Inbox requests carry X-Forwarded-For (a reverse proxy) but TRUST_PROXY (http.trustProxy) is not set: the gateway sees the ' +
  "proxy's address for every operator. Set TRUST_PROXY to the proxy's hop count or address (e.g. TRUST_PROXY=1) so that " +
  'sign-in guesses are counted per client and the session cookie is Secure over https.';

/** Why the configuration shows a reverse proxy in front while TRUST_PROXY is unset; null when it does not. */
export function untrustedProxyHint(config: Pick<Config, 'admin' | 'http' | 'port'>): string | null {
  const trust = config.http.trustProxy;
  if ((trust !== false && trust !== 0) || !config.admin.publicUrl) return null;
  const url = new URL(config.admin.publicUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const reason =
    url.protocol === 'https:'
      ? `PUBLIC_URL (${url.origin}) is https, which the gateway does not serve itself (it listens on plain HTTP, port ${config.port})`
      : port !== config.port
        ? `PUBLIC_URL (${url.origin}) is on port ${port}, the gateway listens on ${config.port}`
        : null;
  return (
    reason && `${reason}: a reverse proxy is in front, but TRUST_PROXY (http.trustProxy) is not set. ${PROXY_ADVICE}`
  );
}

const PROXY_ADVICE =
  "Set TRUST_PROXY to the proxy's hop count or address (e.g. TRUST_PROXY=1), or every operator shares the proxy's address.";
