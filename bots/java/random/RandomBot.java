// A random Arena bot in Java: plays a uniformly random legal action (any game).
import arena.bot.Bot;
import arena.bot.Runner;
import arena.v1.DecideRequest;

public class RandomBot extends Bot {
    @Override
    public int decide(DecideRequest request) {
        return randomIndex(request.getLegalActionsCount());
    }

    public static void main(String[] args) {
        Runner.run(new RandomBot());
    }
}
