// Package eval measures whether a debate beats a vote at the same token
// budget: it runs a set of questions through several arms (single, vote:K,
// debate, rank, stances) on one provider and reports accuracy against tokens, with honest
// statistics. `roundtable eval` is its command line.
//
// # Questions
//
// A questions file is JSONL, one {"id", "question", "answer"} a line, with
// optional "choices" (an array of 2 to 26 strings, lettered A, B, C…).
// Ids are unique. A multiple-choice answer is a letter or a choice's text.
//
// # Extracting an answer
//
// Every prompt asks the model to end with a line "Answer: <your answer>".
// The final answer is read from a reply in this order:
//
//  1. The last line that starts (after Markdown marks: # > * _ ` -) with
//     "Answer" or "Final answer", any case, then ":" (or "=" or a
//     full-width colon). An empty such line takes the next non-blank line.
//     Within it, the last \boxed{…} wins when there is one.
//  2. With no such line, the last \boxed{…} of the reply.
//  3. Else the whole reply.
//
// Then, by the kind of question:
//
//   - Number (the expected answer is one number): the last number in the
//     final answer. Thousands commas are dropped (1,234; LaTeX's 1{,}234 and
//     1\,234 too), as are $ and % around it and a trailing period; a minus
//     right after a letter or digit is a hyphen (10-12 reads 12). Numbers
//     compare canonically: 1234.50 = 1234.5, 007 = 7, -0 = 0. Words
//     ("forty-two") and exponents are not read.
//   - Multiple choice: the letter, in this order: a letter alone ("B",
//     "(b)", "B."); a letter opening the answer ("B. Paris", "(B) Paris");
//     the last letter after "option", "choice", "letter" or "answer is";
//     the last capital in parentheses; the text of a choice, or of the only
//     choice named; and, on an answer line only, the last capital standing
//     alone. A letter beyond the choices is no answer.
//   - Text (anything else): the answer line, or without one the reply's
//     last line, in lower case with emphasis, surrounding punctuation and
//     repeated spaces removed, compared whole.
//
// No answer found is a wrong answer.
//
// # Arms
//
//   - single: one answer.
//   - vote:K: K independent answers to the same prompt; the decision is
//     the majority of the extracted answers. Replies with no answer do not
//     vote; a tie goes to the tied answer that came first, in sample order
//     (Majority).
//   - debate: N personas × R rounds. In round 1 each persona answers blind;
//     in each later round every persona reads the transcript of all the
//     rounds before (the personas of a round speak at once) and answers
//     again. Then one more call, the moderator, reads the question and
//     every reply of every round as written and gives the final answer in
//     the same format: that answer is the debate's. The last round's
//     majority (by the vote's rule) is reported beside it.
//   - rank: the debate, then peer ranking (llm-council's stage 2): after
//     the last round each persona ranks the others' final replies, shown
//     as Response A, B… with no names, in an order shuffled from the
//     seed, the question's id and the ranker (ShownOrder), and ends with
//     "FINAL RANKING: C, A, B", read by debate.ParseRanking as
//     roundtable debate --rank reads it. The moderator reads the replies,
//     each ranking with the names restored and each persona's mean
//     position (1 is best, over the rankings that placed it).
//   - stances: the debate with PAL's consensus stances: round 1 is blind
//     (there is no proposal yet); from round 2 the proposed answer is the
//     round before's majority (Majority's rule) and persona i is told to
//     argue for it, against it or stay neutral, in turn (for, against,
//     neutral, for…). With no answer in the round before there is no
//     proposal and the round is the debate's. The moderator is told the
//     stances were assigned.
//
// With several models, vote sample k and persona i use model k (i) modulo
// their number; single and the moderator the first.
//
// # Tokens
//
// Each call's prompt and completion tokens come from the provider's usage
// and are charged to the arm that made it (the moderator's and the
// rankings' to their debate arm). A provider reporting none is
// counted by our estimate (about four characters a token, plus four a
// message: the mock's rule), and so is the mock, whose usage is that
// estimate: such calls are flagged estimated.
//
// A call's cost is the provider's (OpenRouter reports it), else its
// tokens at Options.Prices; MaxCost stops the run once the costs reach
// it, and CheckCost refuses beforehand a budget no cost could be counted
// for.
//
// # Statistics
//
//   - accuracy with its 95 % Wilson interval;
//   - the exact McNemar test between each pair of arms on the questions
//     both finished: the two-sided binomial test on the discordant pairs;
//   - for each debate arm (debate, rank, stances), the oracle (a question where some persona's
//     first-round answer was right), per round the flips right→wrong and
//     wrong→right, and conformity: of the answers a persona changed from
//     round r-1 to r, the share whose new answer is round r-1's majority;
//   - for rank, the peer rankings: the questions whose top-ranked persona
//     (best mean position, ties to the first) was right, the unreadable
//     rankings, and the rankings shown a right reply that put one first;
//   - equal budget: each debate arm's accuracy against the vote curve
//     (single as vote:1, and each vote:K arm, by tokens per question)
//     read linearly at the arm's tokens per question; outside the curve's
//     range nothing is extrapolated.
package eval
