package arena.bot;

import arena.v1.BotGrpc;
import arena.v1.DecideRequest;
import arena.v1.DecideResponse;
import arena.v1.EndMatchRequest;
import arena.v1.EndMatchResponse;
import arena.v1.Player;
import arena.v1.StartMatchRequest;
import arena.v1.StartMatchResponse;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Random;
import java.util.concurrent.Callable;

/**
 * Serves a {@link Bot} as the arena.v1.Bot gRPC service on the unix socket named by the environment variable
 * ARENA_SOCKET, until the referee stops the process.
 *
 * <p>Debian's grpc-java (1.41, over Debian's netty 4.1.48) cannot listen on a unix socket itself: netty's native
 * epoll library is not packaged. So the gRPC server listens on the sandbox's own loopback (a network namespace of
 * its own: nothing outside can reach it) and the socket at ARENA_SOCKET is bridged to it, byte for byte, with
 * Java's unix-domain channels.
 */
public final class Runner {
    private Runner() {}

    /** Serve {@code bot}; exits with status 2 (a message on stderr) when ARENA_SOCKET is unset or unusable. */
    public static void run(Bot bot) {
        String path = System.getenv("ARENA_SOCKET");
        if (path == null || path.isEmpty()) {
            System.err.println("arena.bot: ARENA_SOCKET is not set (the referee sets it to the unix socket to serve)");
            System.exit(2);
        }
        try {
            NioEventLoopGroup loop = new NioEventLoopGroup(1);  // few threads: the sandbox counts them
            Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                    .channelType(NioServerSocketChannel.class).bossEventLoopGroup(loop).workerEventLoopGroup(loop)
                    .directExecutor().maxInboundMessageSize(16 * 1024 * 1024)
                    .addService(new Service(bot)).build().start();
            int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
            ServerSocketChannel unix = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            unix.bind(UnixDomainSocketAddress.of(path));
            while (true) {
                SocketChannel client = unix.accept();
                SocketChannel backend = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                backend.socket().setTcpNoDelay(true);
                pump(client, backend);
                pump(backend, client);
            }
        } catch (IOException e) {
            System.err.println("arena.bot: cannot serve unix:" + path + ": " + e);
            System.exit(2);
        }
    }

    private static void pump(SocketChannel from, SocketChannel to) {
        Thread thread = new Thread(() -> {
            ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
            try {
                while (from.read(buffer) >= 0) {
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        to.write(buffer);
                    }
                    buffer.clear();
                }
            } catch (IOException ignored) {
                // the other side went away: close both
            }
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
            }
        });
        thread.setDaemon(true);
        thread.start();
    }

    private static final class Service extends BotGrpc.BotImplBase {
        private final Bot bot;

        Service(Bot bot) {
            this.bot = bot;
        }

        @Override
        public synchronized void startMatch(StartMatchRequest request, StreamObserver<StartMatchResponse> out) {
            bot.game = request.getGame();
            bot.paramsJson = request.getParamsJson();
            bot.seat = request.getSeat();
            bot.players = new ArrayList<>();
            for (Player p : request.getPlayersList()) {
                bot.players.add(p.getName());
            }
            bot.timeControl = request.getTimeControl();
            bot.rng = new Random(request.getBotSeed());
            answer(out, () -> {
                bot.start(request);
                return StartMatchResponse.getDefaultInstance();
            });
        }

        @Override
        public synchronized void decide(DecideRequest request, StreamObserver<DecideResponse> out) {
            bot.annotation = "";
            answer(out, () -> {
                int index = bot.decide(request);
                return DecideResponse.newBuilder().setIndex(index).setAnnotation(bot.annotation).build();
            });
        }

        @Override
        public synchronized void endMatch(EndMatchRequest request, StreamObserver<EndMatchResponse> out) {
            answer(out, () -> {
                bot.end(request);
                return EndMatchResponse.getDefaultInstance();
            });
        }

        /** An exception in the bot's code becomes an error status (a fault the referee reports with its text),
         * printed with its stack trace on stderr, which the bot's owner sees in the match's log. */
        private static <T> void answer(StreamObserver<T> out, Callable<T> call) {
            T response;
            try {
                response = call.call();
            } catch (Throwable e) {
                StringWriter trace = new StringWriter();
                e.printStackTrace(new PrintWriter(trace));
                System.err.print("arena.bot: exception in the bot: " + trace);
                System.err.flush();
                out.onError(Status.INTERNAL.withDescription("exception in the bot: " + e).asRuntimeException());
                return;
            }
            out.onNext(response);
            out.onCompleted();
        }
    }
}
