import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** The terminal's columns and rows, updated when it is resized. */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const resized = () => setSize(read());
    stdout.on('resize', resized);
    return () => void stdout.off('resize', resized);
  }, [stdout]);
  return size;
}
