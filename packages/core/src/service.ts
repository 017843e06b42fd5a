import { createEngine, type Service, type ServiceOptions } from './engine/service';
import { operations } from './operations';

export type CreateServiceOptions = Omit<ServiceOptions, 'operations'> & { operations?: ServiceOptions['operations'] };

/** The reelbase service over a store: `service.handle(token, request)` answers any operation of the table. */
export function createService(options: CreateServiceOptions): Service {
  return createEngine({ operations, ...options });
}
