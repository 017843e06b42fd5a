import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's openssl (what .ci/run installs), or null. */
export const opensslPath = (): string | null => ['/usr/bin/openssl', '/usr/local/bin/openssl'].find((p) => existsSync(p)) ?? null;

/**
 * A self-signed P-256 certificate, valid a day, for `names` (host names, or IP addresses as
 * `IP:127.0.0.1`), the first its common name: openssl writes its key and certificate into `dir`
 * as `key` and `cert` (file names), and the answer is their paths.
 */
export function makeCertificate(dir: string, names: string[], files = { key: 'key.pem', cert: 'cert.pem' }): { key: string; cert: string } {
  const [key, cert] = [join(dir, files.key), join(dir, files.cert)];
  const alt = names.map((n) => (n.startsWith('IP:') ? n : `DNS:${n}`)).join(',');
  execFileSync(opensslPath() ?? 'openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', `/CN=${names[0]}`, '-addext', `subjectAltName=${alt}`, '-keyout', key, '-out', cert,
  ], { stdio: 'ignore' });
  return { key, cert };
}
