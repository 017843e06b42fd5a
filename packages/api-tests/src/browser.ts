import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * A Chromium for the browser tests, found the usual ways: CHROME_PATH, Debian's chromium (what
 * .ci/run installs), then a build Playwright downloaded into its cache. Null when there is none.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const cache = env.PLAYWRIGHT_BROWSERS_PATH ?? join(homedir(), '.cache', 'ms-playwright');
  const cached = existsSync(cache)
    ? readdirSync(cache)
        .filter((d) => d.startsWith('chromium'))
        .sort()
        .reverse()
        .flatMap((d) => [join(cache, d, 'chrome-linux', 'chrome'), join(cache, d, 'chrome-linux64', 'chrome')])
    : [];
  const candidates = [env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', ...cached];
  return candidates.find((path): path is string => !!path && existsSync(path)) ?? null;
}

/** The `skip` option of a browser suite: false with a browser, else the one line that says how to get one. */
export const browserSkip = (): false | string =>
  findChromium() ? false : 'no browser: apt-get install -y chromium (.ci/run does), or set CHROME_PATH to a Chromium or Chrome';
