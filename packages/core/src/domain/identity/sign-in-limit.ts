import type { ServiceConfig } from '../../engine/config';
import { addressGroup } from '../../engine/rate-limit';
import type { AttemptCount } from '../attempt-limit';
import { normaliseEmail } from './accounts';

/**
 * A sign-in counts against its account (by the email typed, so an address with no account is
 * counted alike and its answers tell nothing) and its client address (IPv6 by /64: one home holds
 * a whole /64). From a browser holding the account's device cookie it counts against that device
 * instead of the account, so failures from elsewhere do not lock the device's owner out.
 */
export function signInCounts(limit: ServiceConfig['signInLimit'], email: string, address: string | undefined, device: string | null): AttemptCount[] {
  return [
    { key: device ? `device:${device}` : `account:${normaliseEmail(email)}`, max: limit.perAccount },
    ...(address ? [{ key: `address:${addressGroup(address)}`, max: limit.perAddress }] : []),
  ];
}

/**
 * A sign-up counts against its client address twice: every submission, whatever it answers (an
 * email that already has an account costs like any other, so probing emails is limited), and
 * each account made (the second count, which a refused sign-up gives back).
 */
export function signUpCounts(limit: ServiceConfig['signUpLimit'], address: string | undefined): AttemptCount[] {
  if (!address) return [];
  const group = addressGroup(address);
  return [
    { key: `sign-up:${group}`, max: limit.attemptsPerAddress },
    { key: `account-made:${group}`, max: limit.accountsPerAddress },
  ];
}

/** "Try again in N minutes." for a Retry-After of `seconds`. */
export function tryAgainIn(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
