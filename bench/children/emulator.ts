/**
 * Bench child: runs the emulator on 127.0.0.1 (port 0) and prints `{"url": ..., "grpc": ...}` on stdout;
 * stops on SIGTERM or when stdin closes.
 */
import { startEmulator } from '../../src/emulator';

async function run(): Promise<void> {
  const emu = await startEmulator({ port: 0, seed: 'demo' });
  process.stdout.write(`${JSON.stringify({ url: emu.url, grpc: emu.grpcEndpoint })}\n`);
  const stop = () => {
    void emu.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
}
void run();
