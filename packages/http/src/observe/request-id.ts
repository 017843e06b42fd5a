import { randomUUID } from 'node:crypto';

/** What a client or proxy may name its request with: short, and nothing a log line could be tricked by. */
const sane = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's X-Request-Id when it is a sane token, else a new one. */
export const requestIdOf = (header: string | string[] | undefined): string => (typeof header === 'string' && sane.test(header) ? header : randomUUID());
