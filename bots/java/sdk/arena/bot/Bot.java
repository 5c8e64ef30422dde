package arena.bot;

import arena.v1.DecideRequest;
import arena.v1.EndMatchRequest;
import arena.v1.StartMatchRequest;
import arena.v1.TimeControl;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One bot for one match: extend it, override {@link #decide} (and {@link #start} / {@link #end} if you want them)
 * and call {@code Runner.run(new MyBot())} from {@code main}. The SDK fills the public fields from StartMatch before
 * the first decision. The protocol, every field documented, is in proto/arena/v1/arena.proto; its Java classes are
 * in the package {@code arena.v1}.
 */
public abstract class Bot {
    /** "thebes" or "minos". */
    public String game = "";
    /** The game's parameters as JSON, e.g. {"players": 4}. */
    public String paramsJson = "";
    /** This bot's seat, 0-based. */
    public int seat;
    /** Every seat's bot name, in seat order. */
    public List<String> players = new ArrayList<>();
    /** The clock of the match. */
    public TimeControl timeControl = TimeControl.getDefaultInstance();
    /** Seeded with StartMatchRequest.bot_seed: a replayed match plays out the same. */
    public Random rng = new Random(0);

    String annotation = "";

    /** Called once before the first decision; the fields above are already set. */
    public void start(StartMatchRequest request) throws Exception {}

    /** Called for each of this seat's decisions: return an index into request.getLegalActionsList(). */
    public abstract int decide(DecideRequest request) throws Exception;

    /** Called once with the final result. */
    public void end(EndMatchRequest request) throws Exception {}

    /**
     * Attach a short note (at most 256 characters, e.g. the evaluation or plan) to the answer of the decision being
     * decided; the bot's owner sees it on this turn in the replay viewer. What the bot prints on stdout/stderr is
     * kept by decision too.
     */
    public void annotate(String text) {
        annotation = text.codePointCount(0, text.length()) <= 256 ? text
                : text.substring(0, text.offsetByCodePoints(0, 256));
    }

    /** A uniformly random integer in [0, n), from the referee's per-seat seed. */
    public int randomIndex(int n) {
        return n <= 1 ? 0 : rng.nextInt(n);
    }
}
