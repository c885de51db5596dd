/*
 * tourney.rules.records._fastmat: a compiled replay of clean .mat match records.
 *
 * accept(text, crawford, holland) reads the decoded text of a .mat file and replays
 * every game with a mutable board under standard backgammon rules. It returns the
 * match's results only when the record is completely clean, that is when the Python
 * reader and replay (tourney.rules.records.mat and .replay) would report no error and
 * no warning. Whenever anything is unusual, unknown or wrong it returns None, and the
 * caller runs the Python path, which says what is wrong and where. The two paths must
 * never disagree on a record this module accepts, so every rule below mirrors the
 * Python code it names, including its order of trying things where that order decides
 * a result.
 *
 * Terminology follows the Python side: a *side* is 0 for the player a score line names
 * first (the left column) and 1 for the second; points are in the mover's numbering
 * (25 the bar, 0 the tray of borne-off checkers); a *play* is every move of one roll.
 *
 * Layout: text scanning; header, game and score lines; the rules of movement (single
 * steps, the search behind the maximum-dice and larger-die rules, the written-play
 * check); the game replay; the match loop; the module glue. Nothing here is global
 * or mutable: every call works on its own stack and frees what it allocates.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum {
    OFF = 0,
    BAR = 25,
    SLOTS = 26,
    CHECKERS = 15,
    RIGHT_COLUMN = 16,     /* mat._RIGHT_COLUMN: a lone action from here on is the right player's */
    MAX_WRITTEN_MOVES = 8, /* parse_play refuses more */
    MAX_CHAIN_POINTS = 9,  /* more points in one chain would exceed MAX_WRITTEN_MOVES */
    MAX_DIGITS = 9,        /* longer numbers are refused rather than overflowing */
    MAX_PATHS = 4,         /* ways to carry one checker with the dice left */
    MAX_DESCRIBED = 32,    /* results sharing the mover's checkers differ only by hits */
    INITIAL_GAMES = 16,
};

static const int64_t MAX_MATCH_LENGTH = 1000000;
static const int64_t MAX_CUBE = (int64_t)1 << 40;

/* --- text scanning ------------------------------------------------------------------- */

typedef struct {
    const unsigned char *at;
    Py_ssize_t len;
} Span;

/* Character classes of ASCII bytes, as Python's regular expressions see them. */
enum { CLASS_BLANK = 1, CLASS_DIGIT = 2, CLASS_WORD = 4, CLASS_COMMA = 8 };

#define DIGIT_CLASS (CLASS_DIGIT | CLASS_WORD)
#define LETTERS_CLASS(first) \
    [(first)] = CLASS_WORD, [(first) + 1] = CLASS_WORD, [(first) + 2] = CLASS_WORD, \
    [(first) + 3] = CLASS_WORD, [(first) + 4] = CLASS_WORD, [(first) + 5] = CLASS_WORD, \
    [(first) + 6] = CLASS_WORD, [(first) + 7] = CLASS_WORD, [(first) + 8] = CLASS_WORD, \
    [(first) + 9] = CLASS_WORD, [(first) + 10] = CLASS_WORD, [(first) + 11] = CLASS_WORD, \
    [(first) + 12] = CLASS_WORD

/* Blanks are str.isspace() for ASCII, \x1c-\x1f included (Unicode blanks are refused up
   front); word characters are \w for ASCII. Non-ASCII bytes have no class. */
static const unsigned char CHARACTER_CLASS[256] = {
    ['\t'] = CLASS_BLANK, ['\n'] = CLASS_BLANK, ['\v'] = CLASS_BLANK, ['\f'] = CLASS_BLANK,
    ['\r'] = CLASS_BLANK, [0x1c] = CLASS_BLANK, [0x1d] = CLASS_BLANK,   [0x1e] = CLASS_BLANK,
    [0x1f] = CLASS_BLANK,  [' '] = CLASS_BLANK,  [','] = CLASS_COMMA,    ['0'] = DIGIT_CLASS,
    ['1'] = DIGIT_CLASS,   ['2'] = DIGIT_CLASS,  ['3'] = DIGIT_CLASS,    ['4'] = DIGIT_CLASS,
    ['5'] = DIGIT_CLASS,   ['6'] = DIGIT_CLASS,  ['7'] = DIGIT_CLASS,    ['8'] = DIGIT_CLASS,
    ['9'] = DIGIT_CLASS,   ['_'] = CLASS_WORD,   LETTERS_CLASS('A'),     LETTERS_CLASS('N'),
    LETTERS_CLASS('a'),    LETTERS_CLASS('n'),
};

static inline bool is_blank(unsigned char c) { return CHARACTER_CLASS[c] & CLASS_BLANK; }

static inline bool is_digit(unsigned char c) { return CHARACTER_CLASS[c] & CLASS_DIGIT; }

/* What separates the tokens of a play: blanks and commas (moves.parse_play). */
static inline bool is_separator(unsigned char c)
{
    return CHARACTER_CLASS[c] & (CLASS_BLANK | CLASS_COMMA);
}

/* The regular expressions' \w for ASCII. */
static inline bool is_word(unsigned char c) { return CHARACTER_CLASS[c] & CLASS_WORD; }

static inline unsigned char to_lower(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + ('a' - 'A')) : c;
}

static Span span_of(Span span, Py_ssize_t start, Py_ssize_t end)
{
    Span part = {span.at + start, end - start};
    return part;
}

static Span strip(Span span)
{
    while (span.len > 0 && is_blank(span.at[0])) {
        span.at++;
        span.len--;
    }
    while (span.len > 0 && is_blank(span.at[span.len - 1])) {
        span.len--;
    }
    return span;
}

static bool is_ascii(Span span)
{
    for (Py_ssize_t i = 0; i < span.len; i++) {
        if (span.at[i] >= 0x80) {
            return false;
        }
    }
    return true;
}

/* Whether span[i:] starts with eight spaces: columns are padded with long runs of them. */
static inline bool at_eight_spaces(Span span, Py_ssize_t i)
{
    return span.len - i >= 8 && memcmp(span.at + i, "        ", 8) == 0;
}

static Py_ssize_t skip_blanks(Span span, Py_ssize_t i)
{
    while (i < span.len && is_blank(span.at[i])) {
        i++;
    }
    return i;
}

static Py_ssize_t skip_digits(Span span, Py_ssize_t i)
{
    while (i < span.len && is_digit(span.at[i])) {
        i++;
    }
    return i;
}

/* Whether span[i:] starts with the lower-case ASCII word, in any letter case. */
static bool starts_with_word(Span span, Py_ssize_t i, const char *word, size_t length)
{
    if (i < 0 || (size_t)(span.len - i) < length) {
        return false;
    }
    for (size_t k = 0; k < length; k++) {
        if (to_lower(span.at[i + (Py_ssize_t)k]) != (unsigned char)word[k]) {
            return false;
        }
    }
    return true;
}

/* The same for a string literal, whose length is known at compile time. */
#define starts_with(span, i, literal) starts_with_word((span), (i), (literal), sizeof(literal) - 1)
#define equals_word(span, literal) \
    ((span).len == (Py_ssize_t)(sizeof(literal) - 1) && starts_with((span), 0, (literal)))

static bool spans_equal(Span a, Span b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.at, b.at, (size_t)a.len) == 0);
}

typedef enum { NUMBER_NONE, NUMBER_OK, NUMBER_TOO_LONG } NumberRead;

/* Read a run of ASCII digits at *i (Python's int() of it, leading zeros allowed). */
static inline NumberRead read_number(Span span, Py_ssize_t *i, int64_t *value)
{
    Py_ssize_t at = *i;
    if (at >= span.len || !is_digit(span.at[at])) {
        return NUMBER_NONE;
    }
    int64_t number = 0;
    int significant = 0; /* digits from the first one that is not zero */
    do {
        number = number * 10 + (span.at[at] - '0');
        significant += number != 0;
        if (significant > MAX_DIGITS) {
            return NUMBER_TOO_LONG;
        }
        at++;
    } while (at < span.len && is_digit(span.at[at]));
    *i = at;
    *value = number;
    return NUMBER_OK;
}

/* Read "-?\d+" at *i. */
static bool read_signed(Span span, Py_ssize_t *i, int64_t *value)
{
    bool negative = *i < span.len && span.at[*i] == '-';
    if (negative) {
        (*i)++;
    }
    if (read_number(span, i, value) != NUMBER_OK) {
        return false;
    }
    if (negative) {
        *value = -*value;
    }
    return true;
}

/*
 * Characters refused anywhere: NUL (the reader reports binary data) and the Unicode
 * blanks beyond ASCII, which Python's strip(), split() and \s treat as spaces. Refusing
 * them lets every other scan here treat a non-ASCII character as an ordinary one.
 */
static bool has_refused_characters(Span text, bool ascii)
{
    if (ascii) {
        return text.len > 0 && memchr(text.at, 0, (size_t)text.len) != NULL;
    }
    const unsigned char *p = text.at;
    Py_ssize_t n = text.len;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c == 0) {
            return true;
        }
        if (c < 0x80) {
            continue;
        }
        unsigned char c1 = i + 1 < n ? p[i + 1] : 0;
        unsigned char c2 = i + 2 < n ? p[i + 2] : 0;
        if (c == 0xC2 && (c1 == 0x85 || c1 == 0xA0)) {
            return true; /* U+0085, U+00A0 */
        }
        if (c == 0xE1 && c1 == 0x9A && c2 == 0x80) {
            return true; /* U+1680 */
        }
        if (c == 0xE2 && c1 == 0x80 &&
            ((c2 >= 0x80 && c2 <= 0x8A) || c2 == 0xA8 || c2 == 0xA9 || c2 == 0xAF)) {
            return true; /* U+2000-U+200A, U+2028, U+2029, U+202F */
        }
        if (c == 0xE2 && c1 == 0x81 && c2 == 0x9F) {
            return true; /* U+205F */
        }
        if (c == 0xE3 && c1 == 0x80 && c2 == 0x80) {
            return true; /* U+3000 */
        }
    }
    return false;
}

typedef struct {
    Span text;
    Py_ssize_t position;
} LineReader;

/* The next line as text.split("\n") gives it, with trailing "\r"s removed. */
static bool next_line(LineReader *reader, Span *line)
{
    if (reader->position > reader->text.len) {
        return false;
    }
    const unsigned char *start = reader->text.at + reader->position;
    Py_ssize_t left = reader->text.len - reader->position;
    const unsigned char *newline = left > 0 ? memchr(start, '\n', (size_t)left) : NULL;
    Py_ssize_t length = newline ? newline - start : left;
    reader->position += length + 1;
    while (length > 0 && start[length - 1] == '\r') {
        length--;
    }
    line->at = start;
    line->len = length;
    return true;
}

/* --- header, game and score lines ------------------------------------------------------ */

typedef struct {
    int crawford; /* -1: no tag; else whether the first [Crawford] tag says on */
    int holland;
    bool variation_seen;
    bool variation_standard;
} Tags;

/* replay._is_on: "on", "yes", "true" or "1" in any case, blanks around allowed. */
static bool is_on(Span value)
{
    value = strip(value);
    return equals_word(value, "on") || equals_word(value, "yes") ||
           equals_word(value, "true") || equals_word(value, "1");
}

/* variants.variant_for_mat: no variation, or one naming standard backgammon. */
static bool is_standard_variation(Span value)
{
    value = strip(value);
    char folded[16];
    size_t length = 0;
    for (Py_ssize_t i = 0; i < value.len; i++) {
        unsigned char c = value.at[i];
        if (c == ' ') {
            continue;
        }
        if (c >= 0x80 || length + 1 >= sizeof folded) {
            return false;
        }
        folded[length++] = (char)to_lower(c);
    }
    folded[length] = '\0';
    return length == 0 || strcmp(folded, "backgammon") == 0 || strcmp(folded, "standard") == 0;
}

/* A header comment (mat._header_comment): a tag [Name "value"], or a plain comment. */
static void read_header_comment(Span comment, Tags *tags)
{
    /* mat._TAG: \[\s*([^\]"]*?)\s*"(.*)"\s*\] over the whole comment. */
    if (comment.len < 4 || comment.at[0] != '[' || comment.at[comment.len - 1] != ']') {
        return;
    }
    Py_ssize_t first_quote = -1;
    for (Py_ssize_t i = 1; i < comment.len; i++) {
        if (comment.at[i] == ']') {
            return;
        }
        if (comment.at[i] == '"') {
            first_quote = i;
            break;
        }
    }
    if (first_quote < 0) {
        return;
    }
    Py_ssize_t last_quote = comment.len - 2;
    while (last_quote > first_quote && is_blank(comment.at[last_quote])) {
        last_quote--;
    }
    if (last_quote <= first_quote || comment.at[last_quote] != '"') {
        return;
    }
    Span name = strip(span_of(comment, 1, first_quote));
    Span value = span_of(comment, first_quote + 1, last_quote);
    /* record.tag() compares lower-cased names; no non-ASCII letter lowers onto these. */
    if (equals_word(name, "crawford")) {
        if (tags->crawford < 0) {
            tags->crawford = is_on(value);
        }
    } else if (equals_word(name, "holland")) {
        if (tags->holland < 0) {
            tags->holland = is_on(value);
        }
    } else if (equals_word(name, "variation")) {
        if (!tags->variation_seen) {
            tags->variation_seen = true;
            tags->variation_standard = is_standard_variation(value);
        }
    }
}

/* Whether a line's first non-blank character opens a comment (";" or "#"). */
static bool is_comment(Span line, Py_ssize_t first_character, Span *comment)
{
    if (first_character >= line.len ||
        (line.at[first_character] != ';' && line.at[first_character] != '#')) {
        return false;
    }
    *comment = strip(span_of(line, first_character + 1, line.len));
    return true;
}

/* mat._MATCH_LINE: \s*(-?\d+)\s*[- ]\s*point\s+match\b.* (any case), read strictly. */
static bool read_match_line(Span line, int64_t *length)
{
    Py_ssize_t i = skip_blanks(line, 0);
    if (!read_signed(line, &i, length)) {
        return false;
    }
    /* The separator: blanks holding a space, or one dash with blanks around it. */
    Py_ssize_t blanks_start = i;
    i = skip_blanks(line, i);
    bool separated = false;
    if (i < line.len && line.at[i] == '-') {
        separated = true;
        i = skip_blanks(line, i + 1);
    } else {
        for (Py_ssize_t k = blanks_start; k < i; k++) {
            separated = separated || line.at[k] == ' ';
        }
    }
    if (!separated || !starts_with(line, i, "point")) {
        return false;
    }
    Py_ssize_t after_point = i + 5;
    i = skip_blanks(line, after_point);
    if (i == after_point || !starts_with(line, i, "match")) {
        return false;
    }
    i += 5;
    /* \b after "match": a non-ASCII character might be a letter, so it is refused. */
    return i == line.len || (line.at[i] < 0x80 && !is_word(line.at[i]));
}

typedef enum { NOT_GAME_LINE, GAME_LINE, GAME_LINE_REFUSED } GameLine;

/* mat._GAME_LINE: \s*Game\s*(\d*)\s* ; a game without a number is only warned about. */
static GameLine read_game_line(Span line, Py_ssize_t first_character, int64_t *number)
{
    Py_ssize_t i = first_character;
    if (line.len - i < 4 || memcmp(line.at + i, "Game", 4) != 0) {
        return NOT_GAME_LINE;
    }
    i = skip_blanks(line, i + 4);
    NumberRead read = read_number(line, &i, number);
    i = skip_blanks(line, i);
    if (i != line.len) {
        return read == NUMBER_TOO_LONG ? GAME_LINE_REFUSED : NOT_GAME_LINE;
    }
    return read == NUMBER_OK ? GAME_LINE : GAME_LINE_REFUSED;
}

/* A name as mat._Reader._score_line keeps it: without a rating suffix ", 1500.5". */
static bool read_name(Span group, Span *name)
{
    Py_ssize_t comma = -1;
    for (Py_ssize_t i = 0; i < group.len; i++) {
        if (group.at[i] == ',') {
            comma = i;
        }
    }
    if (comma >= 0) {
        Span suffix = span_of(group, comma + 1, group.len);
        if (!is_ascii(suffix)) {
            return false; /* \d would take non-ASCII digits too */
        }
        /* \s*\d+(?:\.\d+)?$ : digit runs of any length. */
        Py_ssize_t i = skip_blanks(suffix, 0);
        Py_ssize_t digits = skip_digits(suffix, i);
        bool rating = digits > i;
        if (rating && digits < suffix.len && suffix.at[digits] == '.') {
            i = digits + 1;
            digits = skip_digits(suffix, i);
            rating = digits > i;
        }
        if (rating && digits == suffix.len) {
            group.len = comma;
        }
    }
    *name = strip(group);
    return true;
}

/*
 * mat._SCORE_LINE: \s*(.*?)\s*:\s*(-?\d+)\s+(.*?)\s*:\s*(-?\d+)\s* on a line that is not
 * numbered. Only lines with exactly two colons are read here (with more, the lazy
 * groups would need backtracking), and non-ASCII text only inside the names.
 */
static bool read_score_line(Span line, Span names[2], int64_t score[2])
{
    Py_ssize_t i = skip_blanks(line, 0);
    if (i < line.len && line.at[i] >= 0x80) {
        return false; /* might be a digit of a numbered line */
    }
    if (i < line.len && is_digit(line.at[i])) {
        while (i < line.len && is_digit(line.at[i])) {
            i++;
        }
        if (i >= line.len || line.at[i] == ')' || line.at[i] >= 0x80) {
            return false;
        }
    }
    Py_ssize_t colons[2];
    int count = 0;
    for (Py_ssize_t k = 0; k < line.len; k++) {
        if (line.at[k] == ':') {
            if (count == 2) {
                return false;
            }
            colons[count++] = k;
        }
    }
    if (count != 2) {
        return false;
    }
    Py_ssize_t start = skip_blanks(line, 0);
    if (!read_name(strip(span_of(line, start, colons[0])), &names[0])) {
        return false;
    }
    i = skip_blanks(line, colons[0] + 1);
    if (!read_signed(line, &i, &score[0])) {
        return false;
    }
    Py_ssize_t after_score = i;
    i = skip_blanks(line, i);
    if (i == after_score) {
        return false;
    }
    if (!read_name(strip(span_of(line, i, colons[1])), &names[1])) {
        return false;
    }
    i = skip_blanks(line, colons[1] + 1);
    if (!read_signed(line, &i, &score[1])) {
        return false;
    }
    return skip_blanks(line, i) == line.len;
}

/* --- the rules of movement -------------------------------------------------------------- */

/* The board from the mover's side: the opponent's count on the mover's point p is
   theirs[25 - p]. */
typedef struct {
    uint8_t mine[SLOTS];
    uint8_t theirs[SLOTS];
} State;

typedef struct {
    int origin;
    int destination;
    bool hit;
} Step;

/* A move as written: one link of a chain, its hit mark the "*" after its destination. */
typedef struct {
    int origin;
    int destination;
    bool hit;
} Move;

/* The numbers a roll lets the mover play, in the order written; four for a doublet. */
typedef struct {
    int die[4];
    int count;
} Dice;

static int highest_point(const uint8_t *mine)
{
    int highest = 24;
    while (highest > 0 && !mine[highest]) {
        highest--;
    }
    return highest;
}

/* moves._single_step: one checker from origin by die, if the rules allow it. */
static bool step_from(const uint8_t *mine, const uint8_t *theirs, int origin, int die,
                      Step *step)
{
    if (!mine[origin] || (mine[BAR] && origin != BAR)) {
        return false;
    }
    int destination = origin - die;
    if (destination > 0) {
        int blockers = theirs[25 - destination];
        if (blockers >= 2) {
            return false;
        }
        step->origin = origin;
        step->destination = destination;
        step->hit = blockers == 1;
        return true;
    }
    /* Bearing off needs every checker home; a higher number bears off only from the
       highest occupied point. */
    int highest = highest_point(mine);
    if (highest > 6 || mine[BAR]) {
        return false;
    }
    if (destination == 0 || origin == highest) {
        step->origin = origin;
        step->destination = OFF;
        step->hit = false;
        return true;
    }
    return false;
}

static inline bool single_step(const State *state, int origin, int die, Step *step)
{
    return step_from(state->mine, state->theirs, origin, die, step);
}

static void move_checker(uint8_t *mine, uint8_t *theirs, const Step *step)
{
    mine[step->origin]--;
    mine[step->destination]++;
    if (step->hit) {
        theirs[25 - step->destination]--;
        theirs[BAR]++;
    }
}

static void take_back(uint8_t *mine, uint8_t *theirs, const Step *step)
{
    mine[step->origin]++;
    mine[step->destination]--;
    if (step->hit) {
        theirs[25 - step->destination]++;
        theirs[BAR]--;
    }
}

static void apply_step(State *state, const Step *step)
{
    move_checker(state->mine, state->theirs, step);
}

/* Whether any checker can move by die: single_step from every point, in one pass. */
static bool can_play_die(const uint8_t *mine, const uint8_t *theirs, int die)
{
    if (mine[BAR]) {
        return theirs[die] < 2; /* the entry point 25 - die */
    }
    int highest = 0;
    for (int origin = 24; origin > 0; origin--) {
        if (!mine[origin]) {
            continue;
        }
        if (!highest) {
            highest = origin;
        }
        int destination = origin - die;
        if (destination > 0 ? theirs[25 - destination] < 2
                            : highest <= 6 && (destination == 0 || origin == highest)) {
            return true;
        }
    }
    return false;
}

static bool is_doublet(const Dice *dice) { return dice->count == 4; }

static int high_die(const Dice *dice)
{
    return dice->die[0] > dice->die[1] ? dice->die[0] : dice->die[1];
}

static int low_die(const Dice *dice)
{
    return dice->die[0] < dice->die[1] ? dice->die[0] : dice->die[1];
}

/* The most of a doublet's moves a legal sequence can make from here, up to `left`. */
static int most_doublet_moves(const State *state, int die, int left)
{
    if (left == 0) {
        return 0;
    }
    int most = 0;
    Step step;
    for (int origin = BAR; origin > 0; origin--) {
        if (!single_step(state, origin, die, &step)) {
            continue;
        }
        State after = *state;
        apply_step(&after, &step);
        int made = 1 + most_doublet_moves(&after, die, left - 1);
        if (made > most) {
            most = made;
        }
        if (most == left) {
            break;
        }
    }
    return most;
}

/* moves._generate's count: how many of the roll's numbers a legal play uses. */
static int most_dice(const State *state, const Dice *dice)
{
    if (is_doublet(dice)) {
        return most_doublet_moves(state, dice->die[0], 4);
    }
    int order[2][2] = {{high_die(dice), low_die(dice)}, {low_die(dice), high_die(dice)}};
    Step step;
    for (int k = 0; k < 2; k++) {
        for (int origin = BAR; origin > 0; origin--) {
            if (!single_step(state, origin, order[k][0], &step)) {
                continue;
            }
            State after = *state;
            apply_step(&after, &step);
            if (can_play_die(after.mine, after.theirs, order[k][1])) {
                return 2;
            }
        }
    }
    return can_play_die(state->mine, state->theirs, dice->die[0]) ||
                   can_play_die(state->mine, state->theirs, dice->die[1])
               ? 1
               : 0;
}

/* Called for each legal result (repeats possible); returns false to stop the search. */
typedef bool (*ResultVisitor)(const State *result, void *context);

static bool visit_doublet_results(const State *state, int die, int left, ResultVisitor visit,
                                  void *context)
{
    if (left == 0) {
        return visit(state, context);
    }
    Step step;
    for (int origin = BAR; origin > 0; origin--) {
        if (!single_step(state, origin, die, &step)) {
            continue;
        }
        State after = *state;
        apply_step(&after, &step);
        if (!visit_doublet_results(&after, die, left - 1, visit, context)) {
            return false;
        }
    }
    return true;
}

/*
 * Every position a legal play reaches (moves._generate): plays using `most` numbers;
 * when only one die of two can be played, the larger one if it can be (DESIGN §2).
 */
static bool visit_results(const State *start, const Dice *dice, int most, ResultVisitor visit,
                          void *context)
{
    if (most == 0) {
        return visit(start, context);
    }
    if (is_doublet(dice)) {
        return visit_doublet_results(start, dice->die[0], most, visit, context);
    }
    Step step, second;
    if (most == 1) {
        int die = can_play_die(start->mine, start->theirs, high_die(dice)) ? high_die(dice)
                                                                         : low_die(dice);
        for (int origin = BAR; origin > 0; origin--) {
            if (single_step(start, origin, die, &step)) {
                State after = *start;
                apply_step(&after, &step);
                if (!visit(&after, context)) {
                    return false;
                }
            }
        }
        return true;
    }
    int order[2][2] = {{high_die(dice), low_die(dice)}, {low_die(dice), high_die(dice)}};
    for (int k = 0; k < 2; k++) {
        for (int origin = BAR; origin > 0; origin--) {
            if (!single_step(start, origin, order[k][0], &step)) {
                continue;
            }
            State middle = *start;
            apply_step(&middle, &step);
            for (int next = BAR; next > 0; next--) {
                if (single_step(&middle, next, order[k][1], &second)) {
                    State after = middle;
                    apply_step(&after, &second);
                    if (!visit(&after, context)) {
                        return false;
                    }
                }
            }
        }
    }
    return true;
}

typedef struct {
    const State *wanted;
    bool found;
} Membership;

static bool visit_membership(const State *result, void *context)
{
    Membership *membership = context;
    if (memcmp(result, membership->wanted, sizeof *result) == 0) {
        membership->found = true;
        return false;
    }
    return true;
}

typedef struct {
    uint8_t mine[SLOTS];
    State matches[MAX_DESCRIBED];
    int count;
    bool overflow;
} Described;

static bool visit_described(const State *result, void *context)
{
    Described *described = context;
    if (memcmp(result->mine, described->mine, sizeof described->mine) != 0) {
        return true;
    }
    for (int k = 0; k < described->count; k++) {
        if (memcmp(&described->matches[k], result, sizeof *result) == 0) {
            return true;
        }
    }
    if (described->count == MAX_DESCRIBED) {
        described->overflow = true;
        return false;
    }
    described->matches[described->count++] = *result;
    return true;
}

/*
 * moves._described_result: the one legal result whose mover's checkers the written
 * moves account for (gnubg's "bar/17(2)" for 4-4 with two checkers on the bar); where
 * hits on the way tell several apart, the "*" marks choose.
 */
static bool described_result(const State *start, const Dice *dice, int most, const Move *moves,
                             int count, State *after)
{
    int mine[SLOTS];
    for (int point = 0; point < SLOTS; point++) {
        mine[point] = start->mine[point];
    }
    int marks = 0;
    for (int k = 0; k < count; k++) {
        mine[moves[k].origin]--;
        mine[moves[k].destination]++;
        marks += moves[k].hit;
    }
    Described described;
    described.count = 0;
    described.overflow = false;
    for (int point = 0; point < SLOTS; point++) {
        if (mine[point] < 0 || mine[point] > 255) {
            return false;
        }
        described.mine[point] = (uint8_t)mine[point];
    }
    visit_results(start, dice, most, visit_described, &described);
    if (described.overflow) {
        return false;
    }
    int chosen = described.count == 1 ? 0 : -1;
    if (described.count > 1) {
        int matching = 0;
        for (int k = 0; k < described.count; k++) {
            if (described.matches[k].theirs[BAR] - start->theirs[BAR] == marks) {
                matching++;
                chosen = k;
            }
        }
        if (matching != 1) {
            chosen = -1;
        }
    }
    if (chosen < 0) {
        return false;
    }
    *after = described.matches[chosen];
    return true;
}

/*
 * moves._play_die_by_die, the common case (gnubg writes every play so): each written
 * move uses exactly one remaining die and is legal in turn. Played on the board itself;
 * when the play does not fit, the board is put back as it was.
 */
static bool play_in_place(uint8_t *mine, uint8_t *theirs, const Dice *dice, const Move *moves,
                          int count)
{
    int remaining[4];
    int left = dice->count;
    memcpy(remaining, dice->die, sizeof remaining);
    Step steps[4];
    int made = 0;
    for (; made < count; made++) {
        int distance = moves[made].origin - moves[made].destination;
        int found = -1;
        for (int d = 0; d < left; d++) {
            if (remaining[d] == distance) {
                found = d;
                break;
            }
        }
        if (found < 0 || !step_from(mine, theirs, moves[made].origin, distance, &steps[made])) {
            break;
        }
        for (int d = found; d + 1 < left; d++) {
            remaining[d] = remaining[d + 1];
        }
        left--;
        move_checker(mine, theirs, &steps[made]);
    }
    if (made == count) {
        return true;
    }
    while (made-- > 0) {
        take_back(mine, theirs, &steps[made]);
    }
    return false;
}

typedef struct {
    int die[4];
    int count;
} Path;

typedef struct {
    Path paths[MAX_PATHS];
    int count;
} Paths;

static void keep_path(Paths *out, const int *dice, int length, int distance, bool bearing_off)
{
    int total = 0;
    for (int k = 0; k < length; k++) {
        total += dice[k];
    }
    int before_last = total - dice[length - 1];
    if (total == distance || (bearing_off && total > distance && distance > before_last)) {
        Path *path = &out->paths[out->count++];
        path->count = length;
        memcpy(path->die, dice, sizeof(int) * (size_t)length);
    }
}

/*
 * moves._die_paths: the orderings of the remaining dice (itertools.permutations of
 * 1, 2, ... of them, each distinct ordering once) that carry one checker the distance,
 * or past it from the last die when bearing off. A roll's remaining dice are always
 * all equal (a doublet, or one die left) or two different numbers; false otherwise.
 */
static bool collect_paths(const int *dice, int dice_count, int distance, bool bearing_off,
                          Paths *out)
{
    out->count = 0;
    bool all_equal = true;
    for (int k = 1; k < dice_count; k++) {
        all_equal = all_equal && dice[k] == dice[0];
    }
    if (all_equal) {
        for (int length = 1; length <= dice_count; length++) {
            keep_path(out, dice, length, distance, bearing_off);
        }
        return true;
    }
    if (dice_count != 2) {
        return false;
    }
    int reversed[2] = {dice[1], dice[0]};
    keep_path(out, dice, 1, distance, bearing_off);
    keep_path(out, reversed, 1, distance, bearing_off);
    keep_path(out, dice, 2, distance, bearing_off);
    keep_path(out, reversed, 2, distance, bearing_off);
    return true;
}

typedef struct {
    State state;
    int used;
    int mismatches;
    bool found;
    bool done; /* every die used and every hit mark right: taken at once */
    bool failed; /* dice this search does not handle: the record is left to Python */
    int dice_count;
} Best;

/*
 * moves._assignments: the ways to play the written moves in this order with the dice,
 * tried in the same order as the Python generator, keeping the candidate check_play
 * keeps: the most dice used, then the fewest hit marks that disagree with the board.
 */
static void assign(const State *state, const Move *moves, int count, const int *dice,
                   int dice_count, int used, int mismatches, Best *best)
{
    if (count == 0) {
        if (!best->found || used > best->used ||
            (used == best->used && mismatches < best->mismatches)) {
            best->found = true;
            best->state = *state;
            best->used = used;
            best->mismatches = mismatches;
        }
        if (used == best->dice_count && mismatches == 0) {
            best->done = true;
        }
        return;
    }
    const Move *move = &moves[0];
    bool bearing_off = move->destination == OFF;
    int distance = move->origin - move->destination;
    Paths paths;
    if (!collect_paths(dice, dice_count, distance, bearing_off, &paths)) {
        best->failed = true;
        return;
    }
    for (int p = 0; p < paths.count; p++) {
        const Path *path = &paths.paths[p];
        State walked = *state;
        int point = move->origin;
        int mismatch = 0;
        bool ok = true;
        Step step;
        for (int k = 0; k < path->count; k++) {
            bool last = k == path->count - 1;
            if (!single_step(&walked, point, path->die[k], &step) ||
                (last && step.destination != move->destination)) {
                ok = false;
                break;
            }
            apply_step(&walked, &step);
            /* A hit on the way is marked inside a chain (a star after the 16 of 20/16/14): a
               single link that hits on the way does not match the writing. */
            mismatch += last ? (step.hit != move->hit) : step.hit;
            point = step.destination;
        }
        if (!ok) {
            continue;
        }
        int remaining[4];
        int left = 0;
        bool removed[4] = {false, false, false, false};
        for (int k = 0; k < path->count; k++) {
            for (int d = 0; d < dice_count; d++) {
                if (!removed[d] && dice[d] == path->die[k]) {
                    removed[d] = true;
                    break;
                }
            }
        }
        for (int d = 0; d < dice_count; d++) {
            if (!removed[d]) {
                remaining[left++] = dice[d];
            }
        }
        assign(&walked, moves + 1, count - 1, remaining, left, used + path->count,
               mismatches + mismatch, best);
        if (best->done || best->failed) {
            return;
        }
    }
}

/* The next permutation of indices in lexicographic (itertools) order. */
static bool next_permutation(int *index, int count)
{
    int i = count - 2;
    while (i >= 0 && index[i] >= index[i + 1]) {
        i--;
    }
    if (i < 0) {
        return false;
    }
    int j = count - 1;
    while (index[j] <= index[i]) {
        j--;
    }
    int swap = index[i];
    index[i] = index[j];
    index[j] = swap;
    for (int a = i + 1, b = count - 1; a < b; a++, b--) {
        swap = index[a];
        index[a] = index[b];
        index[b] = swap;
    }
    return true;
}

static bool same_move(const Move *a, const Move *b)
{
    return a->origin == b->origin && a->destination == b->destination && a->hit == b->hit;
}

/*
 * moves.check_play past its first step (play_in_place): the position after the written
 * play if it is legal with the roll. The written moves are fitted to the dice in every
 * order, and a play using fewer dice than the roll allows must reach a position some
 * maximal legal play reaches.
 */
static bool check_play(const State *start, const Dice *dice, const Move *moves, int count,
                       State *after)
{
    if (count > dice->count) {
        return false;
    }
    Best best;
    memset(&best, 0, sizeof best);
    best.dice_count = dice->count;
    int index[4] = {0, 1, 2, 3};
    Move ordered[4];
    bool written_order = true;
    do {
        bool same = true;
        for (int k = 0; k < count; k++) {
            ordered[k] = moves[index[k]];
            same = same && same_move(&ordered[k], &moves[k]);
        }
        if (same && !written_order) {
            continue; /* the written order is tried first, once */
        }
        written_order = false;
        assign(start, ordered, count, dice->die, dice->count, 0, 0, &best);
        if (best.failed) {
            return false;
        }
        if (best.found && best.used == dice->count) {
            *after = best.state;
            return true;
        }
    } while (next_permutation(index, count));
    int most = most_dice(start, dice);
    if (described_result(start, dice, most, moves, count, after)) {
        return true;
    }
    if (!best.found) {
        return false;
    }
    Membership membership = {&best.state, false};
    visit_results(start, dice, most, visit_membership, &membership);
    if (membership.found) {
        *after = best.state;
    }
    return membership.found;
}

/* --- written plays ---------------------------------------------------------------------- */

/* One point of a chain (moves._point_value): digits, bar/b or off/o, then maybe "*". */
static bool read_point(Span line, Py_ssize_t *i, int *point, bool *marked)
{
    int64_t value;
    NumberRead read = read_number(line, i, &value);
    if (read == NUMBER_TOO_LONG) {
        return false;
    }
    if (read == NUMBER_OK) {
        if (value > BAR) {
            return false; /* "point N is not on the board" */
        }
        *point = (int)value;
    } else if (*i < line.len && to_lower(line.at[*i]) == 'b') {
        *point = BAR;
        *i += starts_with(line, *i, "bar") ? 3 : 1;
    } else if (*i < line.len && to_lower(line.at[*i]) == 'o') {
        *point = OFF;
        *i += starts_with(line, *i, "off") ? 3 : 1;
    } else {
        return false;
    }
    *marked = *i < line.len && line.at[*i] == '*';
    if (*marked) {
        (*i)++;
    }
    return true;
}

/*
 * The usual token, "a/b" or "a/b*" with one- or two-digit points, read directly; false
 * for anything else, which read_play_token then reads in full.
 */
static inline bool read_simple_move(Span line, Py_ssize_t *at, Move *move)
{
    const unsigned char *text = line.at;
    Py_ssize_t i = *at;
    if (i >= line.len || !is_digit(text[i])) {
        return false;
    }
    int origin = text[i++] - '0';
    if (i < line.len && is_digit(text[i])) {
        origin = origin * 10 + (text[i++] - '0');
    }
    if (i + 1 >= line.len || text[i] != '/' || !is_digit(text[i + 1])) {
        return false;
    }
    i++;
    int destination = text[i++] - '0';
    if (i < line.len && is_digit(text[i])) {
        destination = destination * 10 + (text[i++] - '0');
    }
    bool hit = i < line.len && text[i] == '*';
    i += hit;
    /* A checker moves to a lower point on the board (the general reader explains). */
    if ((i < line.len && !is_separator(text[i])) || origin > BAR || destination >= origin) {
        return false;
    }
    move->origin = origin;
    move->destination = destination;
    move->hit = hit;
    *at = i;
    return true;
}

/*
 * The token of a play at line[*i] (moves._STEP_TOKEN): a chain of points, maybe a repeat
 * "(n)", then a separator or the line's end. Its moves are added to `moves`.
 */
static bool read_play_token(Span line, Py_ssize_t *at, Move *moves, int *count)
{
    int points[MAX_CHAIN_POINTS];
    bool marks[MAX_CHAIN_POINTS];
    int length = 0;
    Py_ssize_t i = *at;
    for (;;) {
        if (length == MAX_CHAIN_POINTS || !read_point(line, &i, &points[length], &marks[length])) {
            return false;
        }
        length++;
        if (i < line.len && line.at[i] == '/') {
            i++;
            continue;
        }
        break;
    }
    if (length < 2) {
        return false;
    }
    int repeat = 1;
    if (i < line.len && line.at[i] == '(') {
        if (i + 3 > line.len || !is_digit(line.at[i + 1]) || line.at[i + 2] != ')') {
            return false;
        }
        repeat = line.at[i + 1] - '0';
        i += 3;
        if (repeat < 1 || repeat > 4) {
            return false;
        }
    }
    if (i < line.len && !is_separator(line.at[i])) {
        return false;
    }
    *at = i;
    for (int k = 0; k + 1 < length; k++) {
        /* A checker moves to a lower point; nothing leaves the tray or lands on the bar. */
        if (points[k + 1] >= points[k] || points[k] == OFF || points[k + 1] == BAR) {
            return false;
        }
    }
    for (int r = 0; r < repeat; r++) {
        for (int k = 0; k + 1 < length; k++) {
            if (*count == MAX_WRITTEN_MOVES) {
                return false;
            }
            moves[*count].origin = points[k];
            moves[*count].destination = points[k + 1];
            moves[*count].hit = marks[k + 1];
            (*count)++;
        }
    }
    return true;
}

/* --- the game replay ------------------------------------------------------------------------ */

typedef enum { END_PLAYED = 0, END_DROPPED = 1, END_RESIGNED = 2 } EndKind;

typedef struct {
    int64_t number;
    int winner;
    EndKind end;
    int level; /* 1 single, 2 gammon, 3 backgammon; 0 for a dropped double */
    int64_t cube;
    int64_t points;
    bool crawford;
} GameOutcome;

typedef struct {
    uint8_t checkers[2][SLOTS]; /* each side in its own numbering */
    int64_t cube;
    int owner;      /* -1: centred */
    int offered_by; /* -1: no double waiting */
    int turn;       /* -1: nobody has acted yet */
    int rolls[2];
    bool no_double; /* a 1-point match or the Crawford game */
    bool holland;   /* a post-Crawford game under the Holland rule */
    bool ended;
    int winner;
    EndKind end;
    int level;
    int64_t points;
    bool stated; /* the Wins line has been read */
    int resigner;
    bool unplayed; /* "???": the roller resigned before playing */
} Game;

typedef enum { FORM_MOVED, FORM_DANCE, FORM_UNKNOWN } PlayForm;

static void start_game(Game *game)
{
    memset(game, 0, sizeof *game);
    static const int layout[][2] = {{24, 2}, {13, 5}, {8, 3}, {6, 5}};
    for (int side = 0; side < 2; side++) {
        for (size_t k = 0; k < sizeof layout / sizeof layout[0]; k++) {
            game->checkers[side][layout[k][0]] = (uint8_t)layout[k][1];
        }
    }
    game->cube = 1;
    game->owner = -1;
    game->offered_by = -1;
    game->turn = -1;
    game->resigner = -1;
    game->winner = -1;
}

/* Whether an action other than a Wins line may come now (replay._GameReplay.run). */
static bool game_is_open(const Game *game) { return !game->ended && !game->unplayed; }

/* game.winning_level: the mover bore off the last checker (of the fifteen every side
   has in standard backgammon). */
static int winning_level(const uint8_t *winner, const uint8_t *loser)
{
    if (winner[OFF] != CHECKERS) {
        return 0;
    }
    if (loser[OFF] > 0) {
        return 1;
    }
    if (loser[BAR]) {
        return 3;
    }
    for (int point = 19; point <= 24; point++) {
        if (loser[point]) {
            return 3;
        }
    }
    return 2;
}

static bool game_roll(Game *game, int side, int first, int second, PlayForm form,
                      const Move *moves, int count)
{
    if (!game_is_open(game) || game->offered_by >= 0 ||
        (game->turn >= 0 && side != game->turn)) {
        return false;
    }
    if (game->turn < 0 && first == second) {
        return false; /* the opening roll is never a doublet */
    }
    game->rolls[side]++;
    game->turn = 1 - side;
    if (form == FORM_UNKNOWN) {
        game->resigner = side;
        game->unplayed = true;
        return true;
    }
    uint8_t *mine = game->checkers[side];
    uint8_t *theirs = game->checkers[1 - side];
    Dice dice = {{first, second, first, second}, first == second ? 4 : 2};
    if (form == FORM_DANCE) {
        /* A written dance is true only when no number of the roll can be played. */
        return !can_play_die(mine, theirs, first) && !can_play_die(mine, theirs, second);
    }
    if (count != dice.count || !play_in_place(mine, theirs, &dice, moves, count)) {
        State before, after;
        memcpy(before.mine, mine, SLOTS);
        memcpy(before.theirs, theirs, SLOTS);
        if (!check_play(&before, &dice, moves, count, &after)) {
            return false;
        }
        memcpy(mine, after.mine, SLOTS);
        memcpy(theirs, after.theirs, SLOTS);
    }
    int level = winning_level(mine, theirs);
    if (level) {
        game->ended = true;
        game->winner = side;
        game->end = END_PLAYED;
        game->level = level;
        game->points = game->cube * level;
    }
    return true;
}

/* value: the cube value written after "Doubles =>", or -1 when none is written. */
static bool game_double(Game *game, int side, int64_t value)
{
    if (!game_is_open(game) || (game->turn >= 0 && side != game->turn) || game->no_double) {
        return false;
    }
    /* Holland: no double in a post-Crawford game until each player has rolled twice. */
    if (game->holland && (game->rolls[0] < 2 || game->rolls[1] < 2)) {
        return false;
    }
    if (game->offered_by >= 0 || (game->owner >= 0 && game->owner != side)) {
        return false;
    }
    if (value >= 0 && value != game->cube * 2) {
        return false;
    }
    game->offered_by = side;
    game->turn = 1 - side;
    return true;
}

static bool game_answer(Game *game, int side, bool take)
{
    int doubler = game->offered_by;
    if (!game_is_open(game) || doubler < 0 || doubler == side) {
        return false;
    }
    if (take) {
        if (game->cube >= MAX_CUBE) {
            return false;
        }
        game->cube *= 2;
        game->owner = side;
        game->offered_by = -1;
        game->turn = doubler;
    } else {
        /* A dropped double scores the cube before the double. */
        game->ended = true;
        game->winner = doubler;
        game->end = END_DROPPED;
        game->level = 0;
        game->points = game->cube;
    }
    return true;
}

static bool game_resign(Game *game, int side)
{
    if (!game_is_open(game)) {
        return false;
    }
    game->resigner = side;
    return true;
}

/* replay._GameReplay._win: the Wins line must agree with how the game ended. */
static bool game_win(Game *game, int side, int64_t written)
{
    if (game->stated) {
        return false;
    }
    game->stated = true;
    if (game->ended) {
        return side == game->winner && written == game->points;
    }
    if (game->offered_by >= 0 && side == game->offered_by) {
        /* A Wins line right after a double: the opponent gave up instead of answering. */
        game->ended = true;
        game->winner = side;
        game->end = END_DROPPED;
        game->level = 0;
        game->points = game->cube;
        return written == game->cube;
    }
    if (game->resigner == side) {
        return false;
    }
    /* A resignation: exactly a single, gammon or backgammon at the cube (gnubg's levels;
       anything between is only read with a warning). */
    for (int level = 1; level <= 3; level++) {
        if (written == game->cube * level) {
            game->ended = true;
            game->winner = side;
            game->end = END_RESIGNED;
            game->level = level;
            game->points = written;
            return true;
        }
    }
    return false;
}

/* --- move lines ------------------------------------------------------------------------------ */

typedef enum {
    ACTION_ROLL,
    ACTION_DOUBLE,
    ACTION_TAKE,
    ACTION_DROP,
    ACTION_WIN,
    ACTION_RESIGN,
    ACTION_REFUSED, /* beavers and raccoons (money play only), losses (only warned about) */
} ActionKind;

typedef struct {
    Py_ssize_t start;
    Py_ssize_t word_end;
    ActionKind kind;
} ActionStart;

typedef struct {
    const char *word;
    Py_ssize_t length;
    ActionKind kind;
} ActionWord;

#define ACTION_WORD(word, kind) {(word), (Py_ssize_t)(sizeof(word) - 1), (kind)}

/* In alphabetical order, so that the words starting with one letter stand together. */
static const ActionWord ACTION_WORDS[] = {
    ACTION_WORD("accept", ACTION_TAKE),     ACTION_WORD("accepts", ACTION_TAKE),
    ACTION_WORD("beaver", ACTION_REFUSED),  ACTION_WORD("beavers", ACTION_REFUSED),
    ACTION_WORD("double", ACTION_DOUBLE),   ACTION_WORD("doubles", ACTION_DOUBLE),
    ACTION_WORD("drop", ACTION_DROP),       ACTION_WORD("drops", ACTION_DROP),
    ACTION_WORD("loses", ACTION_REFUSED),   ACTION_WORD("losses", ACTION_REFUSED),
    ACTION_WORD("passes", ACTION_DROP),     ACTION_WORD("raccoon", ACTION_REFUSED),
    ACTION_WORD("raccoons", ACTION_REFUSED), ACTION_WORD("reject", ACTION_DROP),
    ACTION_WORD("rejects", ACTION_DROP),    ACTION_WORD("resign", ACTION_RESIGN),
    ACTION_WORD("resigns", ACTION_RESIGN),  ACTION_WORD("take", ACTION_TAKE),
    ACTION_WORD("takes", ACTION_TAKE),      ACTION_WORD("win", ACTION_WIN),
    ACTION_WORD("wins", ACTION_WIN),
};

enum { ACTION_WORD_COUNT = sizeof ACTION_WORDS / sizeof ACTION_WORDS[0] };

/* Whether the word line[start:end] is an action word; its kind if so. */
static bool is_action_word(Span line, Py_ssize_t start, Py_ssize_t end, ActionKind *kind)
{
    Py_ssize_t length = end - start;
    if (length < 3 || length > 8) {
        return false;
    }
    unsigned char first = to_lower(line.at[start]);
    for (int k = 0; k < ACTION_WORD_COUNT; k++) {
        const ActionWord *word = &ACTION_WORDS[k];
        if ((unsigned char)word->word[0] < first) {
            continue;
        }
        if ((unsigned char)word->word[0] > first) {
            break;
        }
        if (length == word->length &&
            starts_with_word(line, start, word->word, (size_t)word->length)) {
            *kind = word->kind;
            return true;
        }
    }
    return false;
}

/*
 * mat._ACTION_START at line[i]: not after a word character, "/" or "*"; then two digits
 * and a colon, or one of the action words standing as a whole word (any case).
 */
static bool action_at(Span line, Py_ssize_t i, ActionStart *found)
{
    if (i > 0) {
        unsigned char before = line.at[i - 1];
        if (is_word(before) || before == '/' || before == '*') {
            return false;
        }
    }
    if (i + 2 < line.len && is_digit(line.at[i]) && is_digit(line.at[i + 1]) &&
        line.at[i + 2] == ':') {
        found->start = i;
        found->word_end = i + 3;
        found->kind = ACTION_ROLL;
        return true;
    }
    if (i >= line.len || !is_word(line.at[i]) || is_digit(line.at[i])) {
        return false;
    }
    Py_ssize_t end = i;
    while (end < line.len && is_word(line.at[end])) {
        end++;
    }
    if (!is_action_word(line, i, end, &found->kind)) {
        return false;
    }
    found->start = i;
    found->word_end = end;
    return true;
}

/* mat._DOUBLE after the word: \s*(?:=>|=|to)?\s*(\d+)?\s* to the end. */
static bool read_double(Span text, Py_ssize_t i, int64_t *value)
{
    i = skip_blanks(text, i);
    if (i + 1 < text.len && text.at[i] == '=' && text.at[i + 1] == '>') {
        i += 2;
    } else if (i < text.len && text.at[i] == '=') {
        i += 1;
    } else if (starts_with(text, i, "to")) {
        i += 2;
    }
    i = skip_blanks(text, i);
    *value = -1;
    if (read_number(text, &i, value) == NUMBER_TOO_LONG) {
        return false;
    }
    return skip_blanks(text, i) == text.len;
}

/* mat._RESULT after the word: \s+(\d+)\s+points?\s*(and\s+the\s+match)?\s*\.?\s* */
static bool read_result(Span text, Py_ssize_t i, int64_t *value)
{
    Py_ssize_t start = i;
    i = skip_blanks(text, i);
    if (i == start || read_number(text, &i, value) != NUMBER_OK) {
        return false;
    }
    start = i;
    i = skip_blanks(text, i);
    if (i == start || !starts_with(text, i, "point")) {
        return false;
    }
    i += 5;
    if (starts_with(text, i, "s")) {
        i++;
    }
    i = skip_blanks(text, i);
    if (starts_with(text, i, "and")) {
        static const char *const rest[] = {"the", "match"};
        i += 3;
        for (int k = 0; k < 2; k++) {
            start = i;
            i = skip_blanks(text, i);
            size_t length = strlen(rest[k]);
            if (i == start || !starts_with_word(text, i, rest[k], length)) {
                return false;
            }
            i += (Py_ssize_t)length;
        }
        i = skip_blanks(text, i);
    }
    if (i < text.len && text.at[i] == '.') {
        i++;
    }
    return skip_blanks(text, i) == text.len;
}

/* Where the next action starts at or after `from` (mat._ACTION_START found by finditer),
   or the line's end when none does. */
static Py_ssize_t next_action(Span line, Py_ssize_t from, ActionStart *found)
{
    Py_ssize_t i = from;
    while (i < line.len) {
        if (!is_word(line.at[i])) {
            i++; /* every action starts with a digit or a letter */
        } else if (action_at(line, i, found)) {
            return i;
        } else {
            /* Inside a run of word characters no action starts (the look-behind). */
            do {
                i++;
            } while (i < line.len && is_word(line.at[i]));
        }
    }
    return line.len;
}

/*
 * A written dance or "???" (mat._Reader._roll): the words alone up to the next action.
 * Returns the form, and where the next action starts in *end, or -1 when the text there
 * is no such phrase.
 */
static int read_play_phrase(Span line, Py_ssize_t i, ActionStart *next, Py_ssize_t *end)
{
    static const struct {
        const char *words;
        Py_ssize_t length;
        PlayForm form;
    } phrases[] = {
        {"cannot move", 11, FORM_DANCE},
        {"can't move", 10, FORM_DANCE},
        {"no move", 7, FORM_DANCE},
        {"???", 3, FORM_UNKNOWN},
    };
    unsigned char first = i < line.len ? to_lower(line.at[i]) : 0;
    if (first != 'c' && first != 'n' && first != '?') {
        return -1;
    }
    for (size_t k = 0; k < sizeof phrases / sizeof phrases[0]; k++) {
        if (!starts_with_word(line, i, phrases[k].words, (size_t)phrases[k].length)) {
            continue;
        }
        Py_ssize_t after = skip_blanks(line, i + phrases[k].length);
        if (after == line.len || (after > i + phrases[k].length && action_at(line, after, next))) {
            *end = after;
            return (int)phrases[k].form;
        }
    }
    return -1;
}

/*
 * A roll and its play (mat._Reader._roll, moves.parse_play), read straight from the
 * line: the play's tokens, split at blanks and commas, run to where the next action
 * starts. Inside a readable token no action can start (every character of one follows
 * a digit, a letter, "/" or "*", or is a bracket), so only token starts are looked at.
 */
static bool replay_roll(Game *game, int side, Span line, Py_ssize_t start, ActionStart *next,
                        Py_ssize_t *end)
{
    int first = line.at[start] - '0';
    int second = line.at[start + 1] - '0';
    if (first < 1 || first > 6 || second < 1 || second > 6) {
        return false;
    }
    Move moves[MAX_WRITTEN_MOVES];
    int count = 0;
    Py_ssize_t i = skip_blanks(line, start + 3);
    int phrase = read_play_phrase(line, i, next, end);
    if (phrase >= 0) {
        return game_roll(game, side, first, second, (PlayForm)phrase, moves, 0);
    }
    for (;;) {
        while (at_eight_spaces(line, i)) {
            i += 8;
        }
        while (i < line.len && is_separator(line.at[i])) {
            i++;
        }
        if (i == line.len) {
            *end = i;
            break;
        }
        if (is_digit(line.at[i])) {
            /* A token starting with a digit starts an action only as a roll "dd:". */
            if (i + 2 < line.len && is_digit(line.at[i + 1]) && line.at[i + 2] == ':') {
                action_at(line, i, next);
                *end = i;
                break;
            }
            if (count < MAX_WRITTEN_MOVES && read_simple_move(line, &i, &moves[count])) {
                count++;
                continue;
            }
        } else if (action_at(line, i, next)) {
            *end = i;
            break;
        }
        if (!read_play_token(line, &i, moves, &count)) {
            return false;
        }
    }
    /* No move written, or only commas: true only when nothing can be played. */
    return game_roll(game, side, first, second, count ? FORM_MOVED : FORM_DANCE, moves, count);
}

/* Any action but a roll, its text running to the next action (mat._Reader._action). */
static bool replay_word_action(Game *game, int side, const ActionStart *action, Span line,
                               Py_ssize_t end)
{
    Span text = strip(span_of(line, action->start, end));
    Py_ssize_t word_end = action->word_end - action->start;
    int64_t value = -1;
    switch (action->kind) {
    case ACTION_DOUBLE:
        return read_double(text, word_end, &value) && game_double(game, side, value);
    case ACTION_TAKE:
    case ACTION_DROP:
        return word_end == text.len && game_answer(game, side, action->kind == ACTION_TAKE);
    case ACTION_RESIGN:
        return word_end == text.len && game_resign(game, side);
    case ACTION_WIN:
        return read_result(text, word_end, &value) && game_win(game, side, value);
    case ACTION_ROLL:
    case ACTION_REFUSED:
        return false;
    }
    return false;
}

/* mat._Reader._move_line: at most two actions, told apart by their tokens; the column
   says whose a lone action is, and a second one is always the right-hand player's. */
static bool replay_move_line(Game *game, Span line, Py_ssize_t first_character,
                             bool ascii_text)
{
    if (!ascii_text && !is_ascii(line)) {
        return false;
    }
    Py_ssize_t body = first_character;
    while (body < line.len && is_digit(line.at[body])) {
        body++;
    }
    body = (body > first_character && body < line.len && line.at[body] == ')') ? body + 1 : 0;
    ActionStart action;
    Py_ssize_t start = next_action(line, body, &action);
    if (start == line.len || skip_blanks(line, body) != start) {
        return false; /* no action, or text before the first one */
    }
    int side = start < RIGHT_COLUMN ? 0 : 1;
    for (int count = 1;; count++) {
        ActionStart next;
        Py_ssize_t end;
        if (action.kind == ACTION_ROLL) {
            if (!replay_roll(game, side, line, start, &next, &end)) {
                return false;
            }
        } else {
            end = next_action(line, action.word_end, &next);
            if (!replay_word_action(game, side, &action, line, end)) {
                return false;
            }
        }
        if (end == line.len) {
            return true;
        }
        if (count == 2 || side == 1) {
            return false; /* a third action, or two of the right-hand player */
        }
        action = next;
        start = end;
        side = 1;
    }
}

/* --- the match ----------------------------------------------------------------------------- */

typedef struct {
    int64_t length;
    bool crawford_rule;
    bool holland_rule;
    int64_t score[2];
    bool crawford_played;
    bool named;
    Span names[2];
    bool in_game;
    Game game;
    GameOutcome current;
    GameOutcome *outcomes;
    Py_ssize_t count;
    Py_ssize_t capacity;
    GameOutcome inline_outcomes[INITIAL_GAMES];
} Match;

static bool store_outcome(Match *match, const GameOutcome *outcome)
{
    if (match->count == match->capacity) {
        Py_ssize_t capacity = match->capacity * 2;
        GameOutcome *grown;
        if (match->outcomes == match->inline_outcomes) {
            grown = PyMem_Malloc(sizeof(GameOutcome) * (size_t)capacity);
            if (grown) {
                memcpy(grown, match->outcomes, sizeof(GameOutcome) * (size_t)match->count);
            }
        } else {
            grown = PyMem_Realloc(match->outcomes, sizeof(GameOutcome) * (size_t)capacity);
        }
        if (!grown) {
            return false;
        }
        match->outcomes = grown;
        match->capacity = capacity;
    }
    match->outcomes[match->count++] = *outcome;
    return true;
}

/* replay._GameReplay._result: a clean game ended and its Wins line agreed. */
static bool finish_game(Match *match)
{
    Game *game = &match->game;
    if (!match->in_game) {
        return true;
    }
    match->in_game = false;
    if (!game->ended || !game->stated) {
        return false;
    }
    GameOutcome *outcome = &match->current;
    outcome->winner = game->winner;
    outcome->end = game->end;
    outcome->level = game->level;
    outcome->cube = game->cube;
    outcome->points = game->points;
    match->score[game->winner] += game->points;
    return store_outcome(match, outcome);
}

/* replay._MatchReplay.run for one game: its place in the match and its score line. */
static bool begin_game(Match *match, int64_t number, Span names[2], int64_t score[2])
{
    int64_t length = match->length;
    if (match->score[0] >= length || match->score[1] >= length) {
        return false; /* a game after the match was won */
    }
    if (!match->named) {
        match->named = true;
        match->names[0] = names[0];
        match->names[1] = names[1];
    } else if (!spans_equal(names[0], match->names[0]) || !spans_equal(names[1], match->names[1])) {
        return false;
    }
    if (score[0] != match->score[0] || score[1] != match->score[1]) {
        return false;
    }
    /* The Crawford game: the first game in which exactly one player needs one point. */
    bool crawford = match->crawford_rule && length > 1 && !match->crawford_played &&
                    ((match->score[0] == length - 1) != (match->score[1] == length - 1));
    start_game(&match->game);
    match->game.no_double = length == 1 || crawford;
    match->game.holland = match->holland_rule && match->crawford_played && !crawford;
    match->crawford_played = match->crawford_played || crawford;
    memset(&match->current, 0, sizeof match->current);
    match->current.number = number;
    match->current.crawford = crawford;
    match->in_game = true;
    return true;
}

/*
 * Read and replay the whole text (mat._Reader and replay._MatchReplay together, one
 * line at a time): true when the record is clean, with the results in `match`.
 */
static bool replay_text(Span text, bool ascii, int crawford, int holland, Match *match)
{
    if (has_refused_characters(text, ascii)) {
        return false;
    }
    LineReader reader = {text, 0};
    Span line, comment;
    Tags tags = {-1, -1, false, false};
    bool found_length = false;
    while (next_line(&reader, &line)) {
        Py_ssize_t first = skip_blanks(line, 0);
        if (first == line.len) {
            continue;
        }
        if (is_comment(line, first, &comment)) {
            read_header_comment(comment, &tags);
            continue;
        }
        /* Anything else than the match line here is a warning or a problem. Money
           sessions (length 0) are left to the Python path. */
        if (!read_match_line(line, &match->length) || match->length < 1 ||
            match->length > MAX_MATCH_LENGTH) {
            return false;
        }
        found_length = true;
        break;
    }
    if (!found_length) {
        return false;
    }
    bool rules_known = false;
    bool expect_score = false;
    while (next_line(&reader, &line)) {
        Py_ssize_t first = skip_blanks(line, 0);
        if (first == line.len) {
            continue;
        }
        int64_t number = 0;
        GameLine game_line = read_game_line(line, first, &number);
        if (game_line == GAME_LINE_REFUSED) {
            return false;
        }
        if (game_line == GAME_LINE) {
            if (expect_score || !finish_game(match)) {
                return false;
            }
            if (!rules_known) {
                /* Every header tag stands before the first game. */
                if (tags.variation_seen && !tags.variation_standard) {
                    return false;
                }
                match->crawford_rule = crawford >= 0 ? crawford != 0 : tags.crawford != 0;
                match->holland_rule = holland >= 0 ? holland != 0 : tags.holland == 1;
                rules_known = true;
            }
            match->current.number = number;
            expect_score = true;
            continue;
        }
        if (is_comment(line, first, &comment)) {
            if (rules_known) {
                return false; /* a comment inside a game */
            }
            read_header_comment(comment, &tags);
            continue;
        }
        if (!rules_known) {
            return false; /* text before the first game */
        }
        if (expect_score) {
            Span names[2];
            int64_t score[2];
            if (!read_score_line(line, names, score) ||
                !begin_game(match, match->current.number, names, score)) {
                return false;
            }
            expect_score = false;
            continue;
        }
        if (!replay_move_line(&match->game, line, first, ascii)) {
            return false;
        }
    }
    if (expect_score || !finish_game(match)) {
        return false;
    }
    /* The match must be over: an unfinished match is at least a warning. */
    return match->score[0] >= match->length || match->score[1] >= match->length;
}

/* --- module glue ------------------------------------------------------------------------------ */

static PyObject *build_result(const Match *match)
{
    PyObject *games = PyTuple_New(match->count);
    if (!games) {
        return NULL;
    }
    for (Py_ssize_t k = 0; k < match->count; k++) {
        const GameOutcome *game = &match->outcomes[k];
        PyObject *entry = Py_BuildValue("(LiiiLLO)", (long long)game->number, game->winner,
                                        (int)game->end, game->level, (long long)game->cube,
                                        (long long)game->points,
                                        game->crawford ? Py_True : Py_False);
        if (!entry) {
            Py_DECREF(games);
            return NULL;
        }
        PyTuple_SET_ITEM(games, k, entry);
    }
    PyObject *first = PyUnicode_DecodeUTF8((const char *)match->names[0].at, match->names[0].len,
                                           "strict");
    PyObject *second = first ? PyUnicode_DecodeUTF8((const char *)match->names[1].at,
                                                    match->names[1].len, "strict")
                             : NULL;
    PyObject *result = NULL;
    if (first && second) {
        result = Py_BuildValue("(LOON(LL))", (long long)match->length, first, second, games,
                               (long long)match->score[0], (long long)match->score[1]);
        games = NULL; /* the N above took it, or freed it on failure */
    }
    Py_XDECREF(first);
    Py_XDECREF(second);
    Py_XDECREF(games);
    return result;
}

PyDoc_STRVAR(accept_doc,
"accept(text, crawford, holland, /)\n--\n\n"
"Replay a decoded .mat text; its results if the record is completely clean, else None.\n\n"
"crawford and holland: -1 follows the header tags, 0 or 1 forces the rule off or on.\n"
"The result is (match_length, first_name, second_name, games, (score_first,\n"
"score_second)), each game (number, winner, end, level, cube, points, crawford) with\n"
"winner 0/1, end 0 played / 1 dropped / 2 resigned and level 0 (a drop) to 3.");

static PyObject *accept(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "accept() takes exactly 3 arguments");
        return NULL;
    }
    if (!PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "accept() needs the text as str");
        return NULL;
    }
    long crawford = PyLong_AsLong(args[1]);
    if (crawford == -1 && PyErr_Occurred()) {
        return NULL;
    }
    long holland = PyLong_AsLong(args[2]);
    if (holland == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(args[0], &size);
    if (!utf8) {
        /* Lone surrogates cannot be UTF-8: not a text the fast path reads. */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Span text = {(const unsigned char *)utf8, size};
    bool ascii = PyUnicode_IS_ASCII(args[0]);
    Match match;
    memset(&match, 0, sizeof match);
    match.outcomes = match.inline_outcomes;
    match.capacity = INITIAL_GAMES;
    PyObject *result;
    if (replay_text(text, ascii, crawford < 0 ? -1 : crawford != 0, holland < 0 ? -1 : holland != 0,
                    &match)) {
        result = build_result(&match);
    } else {
        result = Py_None;
        Py_INCREF(result);
    }
    if (match.outcomes != match.inline_outcomes) {
        PyMem_Free(match.outcomes);
    }
    return result;
}

static PyMethodDef fastmat_methods[] = {
    {"accept", (PyCFunction)(void (*)(void))accept, METH_FASTCALL, accept_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(module_doc,
"A compiled replay of clean .mat match records: the fast path of validate_mat.");

static struct PyModuleDef fastmat_module = {
    PyModuleDef_HEAD_INIT,
    "tourney.rules.records._fastmat",
    module_doc,
    0,
    fastmat_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__fastmat(void) { return PyModule_Create(&fastmat_module); }
