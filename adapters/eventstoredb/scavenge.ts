/**
 * Starts an EventStoreDB scavenge: the server's operation that rewrites its chunk files without
 * the events of deleted (tombstoned) streams and the ones past a stream's $maxAge/$maxCount.
 * Until a scavenge has run, a deleted job body is only hidden: its events stay in the chunks.
 *
 * `@eventstore/db-client` 6.2 has no public method for the operations API, but it ships the
 * generated gRPC stubs of `event_store.client.operations.Operations`
 * (generated/operations_grpc_pb.js): StartScavenge is called over the client's own channel
 * (its `execute` and `callArguments`, the way the client writes its own commands), so the
 * connection string's node, TLS settings and credentials apply. The server accepts it from a
 * user in `$ops` or `$admins` only (e.g. `esdb://admin:changeit@host:2113`). A scavenge runs on
 * the node that receives it: in a cluster, start one per node (a connection string per node).
 */
import { EventStoreDBClient } from '@eventstore/db-client';
import operationsGrpc from '@eventstore/db-client/generated/operations_grpc_pb.js';
import operationsPb from '@eventstore/db-client/generated/operations_pb.js';

/** What the server answered: the scavenge's id and its state when it answered. */
export interface ScavengeStarted {
  scavengeId: string;
  /** `started`, or `in_progress` when a scavenge was already running on that node (its id then). */
  result: 'started' | 'in_progress' | 'stopped';
}

/** Settings of a scavenge (server defaults: 1 thread, from chunk 0). */
export interface ScavengeOptions {
  /** Threads the server uses (1 to 8 here; the server's limit may be lower). */
  threads: number;
  /** First chunk number to scavenge (0: all). */
  startFromChunk: number;
  /** How long to wait for the server's answer, ms. */
  deadlineMs: number;
}

/** The protected members of the client this module calls (see the module comment). */
interface ClientChannel {
  execute<C, T>(ctor: new (...args: never[]) => C, debugName: string, action: (client: C) => Promise<T>): Promise<T>;
  callArguments(options: { deadline?: number }): [unknown, unknown];
}

const RESULTS: Record<number, ScavengeStarted['result']> = {
  [operationsPb.ScavengeResp.ScavengeResult.STARTED]: 'started',
  [operationsPb.ScavengeResp.ScavengeResult.INPROGRESS]: 'in_progress',
  [operationsPb.ScavengeResp.ScavengeResult.STOPPED]: 'stopped',
};

/**
 * Asks the node of `url` (an EventStoreDB connection string, EVENTSTORE_URL) to start a
 * scavenge. Throws the server's refusal (a user without the rights: `PERMISSION_DENIED`) or the
 * transport's error (`UNAVAILABLE`, `DEADLINE_EXCEEDED`) as an Error naming the gRPC status.
 */
export async function startEventStoreScavenge(url: string, options: ScavengeOptions): Promise<ScavengeStarted> {
  const client = EventStoreDBClient.connectionString(url);
  try {
    const channel = client as unknown as ClientChannel;
    const request = new operationsPb.StartScavengeReq();
    const settings = new operationsPb.StartScavengeReq.Options();
    settings.setThreadCount(options.threads);
    settings.setStartFromChunk(options.startFromChunk);
    request.setOptions(settings);
    const [metadata, callOptions] = channel.callArguments({ deadline: options.deadlineMs });
    const response = await channel.execute(
      operationsGrpc.OperationsClient,
      'startScavenge',
      (grpc) =>
        new Promise<InstanceType<typeof operationsPb.ScavengeResp>>((ok, fail) => {
          grpc.startScavenge(request, metadata as never, callOptions as never, (err, answer) => {
            if (err)
              fail(
                new Error(
                  `EventStoreDB did not start a scavenge: ${err.details || err.message} (gRPC status ${err.code})`,
                  { cause: err },
                ),
              );
            else ok(answer);
          });
        }),
    );
    return { scavengeId: response.getScavengeId(), result: RESULTS[response.getScavengeResult()] ?? 'started' };
  } finally {
    await client.dispose();
  }
}
