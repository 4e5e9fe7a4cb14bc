/** Everything piped on stdin, as text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A secret: typed at a hidden prompt when stdin is a terminal (nothing is echoed), else read whole from stdin
 * without its final newline.
 */
export async function readSecret(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return (await readStdin()).replace(/\r?\n$/, '');
  const { read } = await import('read');
  return read({ prompt: `${prompt}: `, silent: true, output: process.stderr });
}
