/**
 * A stand-in for EventStoreDB's gRPC operations service (event_store.client.operations.Operations,
 * StartScavenge only), served with the gRPC library and the generated service definition that
 * `@eventstore/db-client` itself ships and uses, on loopback. It records each request (thread
 * count, first chunk, the `authorization` header) and answers as the server does: a scavenge id
 * with `Started`; with TLS (a secure server) only for `admin:changeit`, PERMISSION_DENIED for
 * another user; without TLS for anyone, as EventStoreDB run `--insecure` (no authentication:
 * the client sends no credentials over an insecure channel).
 * Not a server: the real one cannot be installed on the build machines.
 */
import { createRequire } from 'node:module';
import operationsGrpc from '@eventstore/db-client/generated/operations_grpc_pb.js';
import operationsPb from '@eventstore/db-client/generated/operations_pb.js';

// The gRPC library of the client (its dependency), so both ends speak the same version.
const grpc = createRequire(createRequire(import.meta.url).resolve('@eventstore/db-client'))(
  '@grpc/grpc-js',
) as typeof import('@grpc/grpc-js');

/** One StartScavenge call as the stand-in received it. */
export interface ScavengeCall {
  threads: number;
  startFromChunk: number;
  authorization: string | undefined;
}

/** A running stand-in: its `esdb://` URL for a user (default `admin:changeit`), the calls, and the stop. */
export interface OperationsStandIn {
  url: (user?: string) => string;
  calls: ScavengeCall[];
  close(): Promise<void>;
}

/**
 * Starts the stand-in on a free port of 127.0.0.1; with `tls` (a certificate valid for
 * IP 127.0.0.1, its key, and the certificate's file for the client's `tlsCAFile`) it is secure.
 */
export async function startOperationsStandIn(tls?: {
  cert: Buffer;
  key: Buffer;
  certFile: string;
}): Promise<OperationsStandIn> {
  const calls: ScavengeCall[] = [];
  const accepted = `Basic ${Buffer.from('admin:changeit').toString('base64')}`;
  const server = new grpc.Server();
  const unimplemented = (_call: unknown, done: (err: { code: number; details: string }) => void) =>
    done({ code: grpc.status.UNIMPLEMENTED, details: 'stand-in' });
  const handlers: Record<string, unknown> = {
    startScavenge(
      call: { request: InstanceType<typeof operationsPb.StartScavengeReq>; metadata: { get(key: string): unknown[] } },
      done: (err: unknown, answer?: unknown) => void,
    ) {
      const options = call.request.getOptions();
      const authorization = call.metadata.get('authorization')[0] as string | undefined;
      calls.push({
        threads: options?.getThreadCount() ?? 0,
        startFromChunk: options?.getStartFromChunk() ?? 0,
        authorization,
      });
      if (tls && authorization !== accepted)
        return done({ code: grpc.status.PERMISSION_DENIED, details: 'Access denied.' });
      const answer = new operationsPb.ScavengeResp();
      answer.setScavengeId(`scv-${calls.length}`);
      answer.setScavengeResult(operationsPb.ScavengeResp.ScavengeResult.STARTED);
      done(null, answer);
    },
    stopScavenge: unimplemented,
    shutdown: unimplemented,
    mergeIndexes: unimplemented,
    resignNode: unimplemented,
    setNodePriority: unimplemented,
    restartPersistentSubscriptions: unimplemented,
  };
  server.addService(operationsGrpc.OperationsService, handlers as never);
  const port = await new Promise<number>((ok, fail) =>
    server.bindAsync(
      '127.0.0.1:0',
      tls
        ? grpc.ServerCredentials.createSsl(null, [{ cert_chain: tls.cert, private_key: tls.key }], false)
        : grpc.ServerCredentials.createInsecure(),
      (err, p) => (err ? fail(err) : ok(p)),
    ),
  );
  return {
    url: (user = 'admin:changeit') =>
      `esdb://${user}@127.0.0.1:${port}?${tls ? `tls=true&tlsCAFile=${encodeURIComponent(tls.certFile)}` : 'tls=false'}`,
    calls,
    close: () => new Promise<void>((ok) => server.tryShutdown(() => ok())),
  };
}
