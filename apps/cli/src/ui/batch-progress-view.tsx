import { render } from 'ink';
import type { ProgressView } from '../batch/progress';
import { BatchProgress } from './batch-progress';

/** The Ink progress bar drawn on a terminal stream (stderr, so stdout stays for data). */
export function inkProgressView(stream: NodeJS.WriteStream): ProgressView {
  let instance: ReturnType<typeof render> | undefined;
  return {
    update(snapshot) {
      const tree = <BatchProgress snapshot={snapshot} />;
      if (instance) instance.rerender(tree);
      else instance = render(tree, { stdout: stream, stderr: stream, exitOnCtrlC: false, patchConsole: false });
    },
    async finish(snapshot) {
      this.update(snapshot);
      instance!.unmount();
      await instance!.waitUntilExit();
    },
  };
}
