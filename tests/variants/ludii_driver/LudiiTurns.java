import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import game.Game;
import game.equipment.container.board.Track;
import game.types.board.SiteType;
import main.collections.FastArrayList;
import org.apache.commons.rng.core.source64.SplitMix64;
import other.GameLoader;
import other.action.Action;
import other.action.die.ActionUpdateDice;
import other.action.die.ActionUseDie;
import other.context.Context;
import other.move.Move;
import other.state.container.ContainerState;
import other.trial.Trial;

/**
 * Plays random games of one of Ludii's tables games and, at the start of each turn, lists
 * every position the whole roll can lead to under Ludii's own legal moves. Used by
 * tests/variants/make_ludii_data.py, which compiles it against a compiled Ludii and reads
 * its output; nothing of Ludii is part of tourney.
 *
 * Usage: java -cp LUDII_CLASSPATH:. LudiiTurns /lud/board/race/escape/Portes.lud TURNS SEED
 * [restart-when-stuck]
 *
 * A Ludii turn is a chain of single-die moves (the mover moves again while a die is
 * unused and a move exists). From the turn's first legal moves (which carry the roll) the
 * chain is followed depth-first through every legal move until the other side is on roll
 * or the game is over; each distinct position reached is a result, with the dice each
 * chain to it used. A state (position, dice left, Ludii's doublet counter) is expanded
 * once.
 *
 * Output, one JSON line per turn: {"game", "games" (how many games so far), "mover" (1 or
 * 2), "carried" (Ludii's State.temp() at the turn's start, -1 when unset), "roll",
 * "position", "results": [{"position", "over", "used": [[die values], ...]}]}. A position
 * is {"x": side, "o": side} with the mover as x; a side is {"points": {own point: count},
 * "bar", "off", "pins": [own points where its checker lies under the other side's]}, each
 * side in its own numbering: its track's first site is its own 24 point (or its bar, on
 * a track of 25 sites), the last its own 1 point.
 *
 * The game goes on from a result chosen at random among those that use the most values
 * (or end the game). With "restart-when-stuck" a new game starts once the side that moved
 * has every checker on its own 1-6 and no result of its turn bore a checker off (a side
 * that then never bears off would repeat such turns to the end).
 */
public final class LudiiTurns
{
	private static Game game;

	/** Per player (1, 2): the sites of its track in order, without the End marker. */
	private static final int[][] TRACKS = new int[3][];

	private static final class Result
	{
		String position;
		boolean over;
		final Set<List<Integer>> used = new TreeSet<>((a, b) -> a.toString().compareTo(b.toString()));
		Context context;

		int mostUsed()
		{
			int most = 0;
			for (final List<Integer> values : used)
				most = Math.max(most, values.size());
			return most;
		}
	}

	public static void main(final String[] args)
	{
		final String lud = args[0];
		final int turns = Integer.parseInt(args[1]);
		final long seed = Long.parseLong(args[2]);
		final boolean restartWhenStuck = args.length > 3 && args[3].equals("restart-when-stuck");
		game = GameLoader.loadGameFromName(lud);
		for (final Track track : game.board().tracks())
			// A track's optional End is no site (a negative number).
			TRACKS[track.owner()] = Arrays.stream(track.elems()).mapToInt(e -> e.site).filter(s -> s >= 0).toArray();
		final Random choose = new Random(seed);
		int games = 1;
		Context context = newGame(seed);
		for (int turn = 0; turn < turns; turn++)
		{
			if (context.trial().over())
				context = newGame(seed + games++);
			final int mover = context.state().mover();
			final String before = position(context, mover);
			final int carried = context.state().temp();
			final FastArrayList<Move> first = game.moves(context).moves();
			final int[] roll = roll(first);
			final Map<String, Result> results = new TreeMap<>();
			final Set<String> seen = new HashSet<>();
			for (final Move move : first)
			{
				// The turn's first move sets the dice itself: its value comes from the roll.
				final int die = dieIndex(move);
				final List<Integer> used = new ArrayList<>();
				if (die >= 0)
					used.add(roll[die]);
				final Context child = Context.copyWithSeed(context);
				game.apply(child, move);
				expand(child, mover, used, results, seen);
			}
			System.out.println(line(games, mover, carried, roll, before, results));
			context = chooseNext(results, roll, choose);
			if (restartWhenStuck && allHome(context, mover) && !bearsOff(results, before))
				context = newGame(seed + games++);
		}
	}

	private static Context newGame(final long seed)
	{
		// Copies are made with copyWithSeed: Ludii's plain copy constructor gives the copy
		// a shared RNG of its own, and the recorded games would not repeat.
		final Context context = new Context(game, new Trial(game));
		context.rng().restoreState(new SplitMix64(Long.valueOf(seed)).saveState());
		game.start(context);
		// Speed only: MaxDistance.eval ("max Distance" in these games) works out each
		// move's look-ahead distance and then returns the moves unfiltered; it skips that
		// look-ahead in a context marked as already inside one. The legal moves are the same.
		context.setRecursiveCalled(true);
		return context;
	}

	/** Depth-first through the rest of the turn from ``context``. */
	private static void expand(final Context context, final int mover, final List<Integer> used,
			final Map<String, Result> results, final Set<String> seen)
	{
		final boolean ended = context.trial().over() || context.state().mover() != mover;
		final String here = position(context, mover);
		final List<Integer> sortedUsed = new ArrayList<>(used);
		sortedUsed.sort(null);
		final String key = here + "|" + Arrays.deepToString(context.state().currentDice()) + "|"
				+ context.state().temp() + "|" + ended + "|" + sortedUsed;
		if (!seen.add(key))
			return;
		if (ended)
		{
			Result result = results.get(here);
			if (result == null)
			{
				result = new Result();
				result.position = here;
				result.over = context.trial().over();
				result.context = context;
				results.put(here, result);
			}
			result.used.add(sortedUsed);
			return;
		}
		for (final Move move : game.moves(context).moves())
		{
			final int die = dieIndex(move);
			final List<Integer> next = new ArrayList<>(used);
			if (die >= 0)
				next.add(context.state().currentDice()[0][die]);
			final Context child = Context.copyWithSeed(context);
			game.apply(child, move);
			expand(child, mover, next, results, seen);
		}
	}

	/** A result that uses the most values (a game-ending one counts as using all). */
	private static Context chooseNext(final Map<String, Result> results, final int[] roll, final Random choose)
	{
		final int values = roll[0] == roll[1] ? 4 : 2;
		int most = 0;
		for (final Result r : results.values())
			most = Math.max(most, r.over ? values : r.mostUsed());
		final List<Result> full = new ArrayList<>();
		for (final Result r : results.values())
			if ((r.over ? values : r.mostUsed()) == most)
				full.add(r);
		return full.get(choose.nextInt(full.size())).context;
	}

	/** The index of the die a move uses, or -1 (a pass). */
	private static int dieIndex(final Move move)
	{
		for (final Action action : move.actions())
			if (action instanceof ActionUseDie)
				return ((ActionUseDie) action).indexDie();
		return -1;
	}

	/** The roll set by a turn's first legal moves (each carries it). */
	private static int[] roll(final FastArrayList<Move> moves)
	{
		final int[] dice = new int[2];
		int found = 0;
		for (final Action action : moves.get(0).actions())
			if (action instanceof ActionUpdateDice && found < 2)
				dice[found++] = ((ActionUpdateDice) action).state() + 1;  // a d6's faces are 1-6
		if (found != 2)
			throw new IllegalStateException("no roll in " + moves.get(0));
		return dice;
	}

	private static boolean allHome(final Context context, final int player)
	{
		final Side side = side(context, player);
		return side.bar == 0 && side.points.keySet().stream().allMatch(p -> p <= 6);
	}

	private static boolean bearsOff(final Map<String, Result> results, final String before)
	{
		final String off = before.substring(before.indexOf("\"off\""), before.indexOf(",\"pins\""));
		for (final Result r : results.values())
			if (!r.position.substring(r.position.indexOf("\"off\""), r.position.indexOf(",\"pins\"")).equals(off))
				return true;
		return false;
	}

	private static final class Side
	{
		final Map<Integer, Integer> points = new TreeMap<>();
		final List<Integer> pins = new ArrayList<>();
		int bar;
		int off = 15;

		String json()
		{
			final StringBuilder s = new StringBuilder("{\"points\":{");
			String comma = "";
			for (final Map.Entry<Integer, Integer> e : points.entrySet())
			{
				s.append(comma).append('"').append(e.getKey()).append("\":").append(e.getValue());
				comma = ",";
			}
			pins.sort(null);
			return s.append("},\"bar\":").append(bar).append(",\"off\":").append(off)
					.append(",\"pins\":").append(pins.toString().replace(" ", "")).append('}').toString();
		}
	}

	private static Side side(final Context context, final int player)
	{
		final ContainerState board = context.containerState(0);
		final int[] sites = TRACKS[player];
		final int first = sites.length == 25 ? 25 : 24;  // the bar, or the own 24 point
		final Side side = new Side();
		for (int i = 0; i < sites.length; i++)
		{
			final int size = board.sizeStack(sites[i], SiteType.Vertex);
			int count = 0;
			for (int level = 0; level < size; level++)
				if (board.who(sites[i], level, SiteType.Vertex) == player)
					count++;
			if (count == 0)
				continue;
			side.off -= count;
			final int point = first - i;
			if (point == 25)
			{
				side.bar = count;
				continue;
			}
			side.points.put(point, count);
			if (count < size && board.who(sites[i], 0, SiteType.Vertex) == player)
				side.pins.add(point);
		}
		return side;
	}

	private static String position(final Context context, final int mover)
	{
		return "{\"x\":" + side(context, mover).json() + ",\"o\":" + side(context, 3 - mover).json() + "}";
	}

	private static String line(final int games, final int mover, final int carried, final int[] roll,
			final String before, final Map<String, Result> results)
	{
		final StringBuilder s = new StringBuilder();
		s.append("{\"game\":\"").append(game.name()).append("\",\"games\":").append(games)
				.append(",\"mover\":").append(mover).append(",\"carried\":").append(carried)
				.append(",\"roll\":[").append(roll[0]).append(',').append(roll[1])
				.append("],\"position\":").append(before).append(",\"results\":[");
		String comma = "";
		for (final Result r : results.values())
		{
			s.append(comma).append("{\"position\":").append(r.position).append(",\"over\":").append(r.over)
					.append(",\"used\":").append(r.used.toString().replace(" ", "")).append('}');
			comma = ",";
		}
		return s.append("]}").toString();
	}
}
