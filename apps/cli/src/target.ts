import { envOf, fromEnv } from './context';
import { UsageError } from './errors';
import type { CliIo } from './io';
import { readProfiles, type Profile, type ProfilesFile } from './profiles';

/** The flags every client command shares (declared once, in commands/options.ts). */
export interface TargetOptions {
  token?: string;
  baseUrl?: string;
  store?: string;
  profile?: string;
  apiVersion?: string;
}

/** Where a client command sends its requests and with which token. */
export interface Target {
  /** A running server; when absent, in-process on `store` (undefined: the default store). */
  baseUrl?: string;
  store?: string;
  token?: string;
  /** The profile the target came from, if any. */
  profile?: string;
  /** Which layer chose the target, for messages: `flags`, `profile work`, `environment`… */
  source: string;
}

/** One source of settings; a profile's token is only sent to that profile's own target. */
interface Layer {
  source: string;
  baseUrl?: string;
  store?: string;
  token?: string;
  profile?: string;
  bound: boolean;
}

const profileLayer = (source: string, name: string, profile: Profile): Layer => ({
  source,
  baseUrl: profile.base_url,
  store: profile.store,
  token: profile.token,
  profile: name,
  bound: true,
});

const namesTarget = (l: Layer): boolean => l.baseUrl !== undefined || l.store !== undefined;

function named(file: ProfilesFile, name: string, from: string): Profile {
  const profile = Object.hasOwn(file.profiles, name) ? file.profiles[name] : undefined;
  if (!profile) throw new UsageError(`no profile "${name}" (${from}); see \`reelbase profiles\`, or create it with \`reelbase login --profile ${name}\``);
  return profile;
}

/**
 * Picks the target, first match wins: flags (--base-url/--store, --token) > --profile NAME >
 * the environment (REELBASE_URL/REELBASE_STORE, REELBASE_TOKEN, then REELBASE_PROFILE) > the
 * default profile > in-process on the default store, anonymous. A token set by flag or
 * environment goes to whichever target wins; a profile's token only to its own target, so
 * `--base-url` elsewhere never leaks the default profile's token. The profiles file is only
 * read when a profile can matter, so explicit flags work even beside a damaged file.
 */
export async function resolveTarget(io: CliIo, opts: TargetOptions): Promise<Target> {
  const env = envOf(io);
  let file: Promise<ProfilesFile> | undefined;
  const profiles = () => (file ??= readProfiles(env)); // read only when a profile is consulted
  const layers: Layer[] = [{ source: 'flags', baseUrl: opts.baseUrl, store: opts.store, token: opts.token, bound: false }];
  if (opts.profile !== undefined) layers.push(profileLayer(`profile ${opts.profile}`, opts.profile, named(await profiles(), opts.profile, '--profile')));
  const envUrl = fromEnv(env, 'REELBASE_URL');
  layers.push({ source: 'environment', baseUrl: envUrl, store: envUrl ? undefined : fromEnv(env, 'REELBASE_STORE'), token: fromEnv(env, 'REELBASE_TOKEN'), bound: false });
  if (!layers.some(namesTarget)) {
    const saved = await profiles();
    const envProfile = fromEnv(env, 'REELBASE_PROFILE');
    if (envProfile !== undefined) layers.push(profileLayer(`profile ${envProfile}`, envProfile, named(saved, envProfile, 'REELBASE_PROFILE')));
    else if (saved.default !== null && Object.hasOwn(saved.profiles, saved.default)) {
      layers.push(profileLayer(`default profile ${saved.default}`, saved.default, saved.profiles[saved.default]));
    }
  }

  const chosen = layers.find(namesTarget);
  const token = layers.find((l) => l.token !== undefined && (!l.bound || l === chosen))?.token;
  if (!chosen) return { token, source: 'default store' };
  const target: Target = { token, source: chosen.source };
  if (chosen.baseUrl !== undefined) target.baseUrl = chosen.baseUrl;
  else target.store = chosen.store;
  if (chosen.profile !== undefined) target.profile = chosen.profile;
  return target;
}
