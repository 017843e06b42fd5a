import type { Client } from '@reelbase/http';
import { useCallback, useEffect, useRef, useState } from 'react';
import { runEffect } from './effects';
import { start, update } from './reducer';
import { jobsRefreshSeconds, searchableSections } from './sections';
import { initialState, type Msg, type Session, type State, type Step } from './state';

/**
 * The TUI's state machine in React: `update` decides, this hook runs the effects it asks for
 * through the client and feeds their answers back. The state also lives in a ref so that keys
 * arriving between renders see the latest one.
 */
export function useTui(client: Client, session: Session, quit: () => void): [State, (msg: Msg) => void] {
  const current = useRef<State | null>(null);
  current.current ??= initialState(session, searchableSections(client.operations));
  const [state, setState] = useState(current.current);
  const mounted = useRef(true);

  const apply = useCallback(
    (step: Step) => {
      current.current = step.state;
      setState(step.state);
      for (const effect of step.effects) {
        if (effect.type === 'quit') quit();
        else void runEffect(client, effect).then((msg) => mounted.current && apply(update(current.current!, msg)));
      }
    },
    [client, quit],
  );
  const dispatch = useCallback((msg: Msg) => apply(update(current.current!, msg)), [apply]);

  useEffect(() => {
    mounted.current = true;
    apply(start(current.current!));
    return () => void (mounted.current = false);
  }, [apply]);

  useEffect(() => {
    const timer = setInterval(() => dispatch({ type: 'tick' }), jobsRefreshSeconds * 1000);
    return () => clearInterval(timer);
  }, [dispatch]);
  return [state, dispatch];
}
