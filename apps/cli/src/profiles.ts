import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fromEnv, type Env } from './context';
import { UsageError } from './errors';

/** One saved login: where to send requests (a server or a local store) and the token to send. */
export interface Profile {
  base_url?: string;
  store?: string;
  token: string;
  /** Who the token belonged to when it was checked at login. */
  user?: { uri: string; name: string };
}

/** The profiles file: every profile by name, and the one used when nothing else names a target. */
export interface ProfilesFile {
  default: string | null;
  profiles: Record<string, Profile>;
}

const fileName = 'profiles.json';

/**
 * The user's config directory: $REELBASE_CONFIG_DIR, else $XDG_CONFIG_HOME/reelbase, else
 * ~/.config/reelbase; undefined when the environment names no home (then there are no profiles).
 * Read from the command's environment, not the OS, so a run with an empty environment is hermetic.
 */
export function configDir(env: Env): string | undefined {
  const explicit = fromEnv(env, 'REELBASE_CONFIG_DIR');
  if (explicit) return explicit;
  const xdg = fromEnv(env, 'XDG_CONFIG_HOME');
  if (xdg) return join(xdg, 'reelbase');
  const home = fromEnv(env, 'HOME') ?? fromEnv(env, 'USERPROFILE');
  return home ? join(home, '.config', 'reelbase') : undefined;
}

export const profilesPath = (env: Env): string | undefined => {
  const dir = configDir(env);
  return dir && join(dir, fileName);
};

const empty = (): ProfilesFile => ({ default: null, profiles: {} });

/** The saved profiles; none when the file (or the config directory) does not exist. */
export async function readProfiles(env: Env): Promise<ProfilesFile> {
  const path = profilesPath(env);
  if (!path) return empty();
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty();
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON; fix or delete it (then log in again)`);
  }
  const file = parsed as Partial<ProfilesFile> | null;
  if (!file || typeof file !== 'object' || typeof file.profiles !== 'object' || file.profiles === null) {
    throw new Error(`${path} is not a reelbase profiles file; fix or delete it (then log in again)`);
  }
  for (const [name, profile] of Object.entries(file.profiles)) {
    if (!isProfile(profile)) throw new Error(`profile "${name}" in ${path} is damaged (it needs a token and a base_url or store); log in again or delete it`);
  }
  return { default: typeof file.default === 'string' ? file.default : null, profiles: file.profiles };
}

const isProfile = (value: unknown): value is Profile => {
  const p = value as Partial<Profile> | null;
  return !!p && typeof p === 'object' && typeof p.token === 'string' && (typeof p.base_url === 'string' || typeof p.store === 'string');
};

/**
 * Saves the profiles, readable by the user only (0600, in a 0700 directory). Written to a
 * temporary file created 0600 and renamed over the old one, so a token never sits in a file
 * others can read and a crash leaves the previous file whole.
 */
export async function writeProfiles(env: Env, file: ProfilesFile): Promise<string> {
  const dir = configDir(env);
  if (!dir) throw new UsageError('no config directory: set REELBASE_CONFIG_DIR, XDG_CONFIG_HOME or HOME');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, fileName);
  const temp = join(dir, `.${fileName}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
  return path;
}

/** A token as it may be shown: its first four characters only. */
export const maskToken = (token: string): string => `${token.slice(0, 4)}…`;

/** What a profile points at, for messages: the server URL or the store spec. */
export const profileTarget = (profile: Profile): string => profile.base_url ?? profile.store ?? '?';

/** A profile name: letters, digits, `-`, `_`, `.`; anything else is a usage error. */
export function checkProfileName(name: string): string {
  if (!/^[\w.-]{1,64}$/.test(name)) throw new UsageError(`invalid profile name "${name}": use 1 to 64 letters, digits, "-", "_" or "."`);
  return name;
}
