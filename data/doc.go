// Package data generates the pronoun-resolution corpus, tokenizes text,
// builds the vocabulary, and cuts padded batches for the model.
//
// # Corpus
//
// Every sentence has two candidate nouns and exactly one pronoun, "it", whose
// antecedent is fixed by meaning, not by position:
//
//	A dog ate the food because it was hungry.  -> dog  (hunger describes an eater)
//	A dog ate the food because it was tasty.   -> food (taste describes food)
//
// Sentences are generated from semantic frames kept as readable text files in
// data/lexicon/frames/*.txt (format in data/lexicon/README.txt). A frame gives a
// verb (active and, where natural, passive), agent nouns, object nouns, agent
// predicates and object predicates; a predicate belongs to exactly one role, so
// the answer is the agent or the object according to the predicate. The 12
// frames are eat, drink, cross, cross_fail, lift, fit, catch, avoid, climb,
// sleep, overtake and find; some predicates change sides between frames ("fast"
// is the prey in catch but the overtaker in overtake), and in overtake both
// nouns come from the same list, so only meaning can decide.
//
// Each meaning is written in a sentence shape (template), with "a"/"an" or
// "the" before each noun ("the" only for mass nouns, data/lexicon/mass.txt), a
// connective ("because", "since", "as") and sometimes an adverb ("very",
// "really"; "far"/"much" before "too big") before the predicate:
//
//	active           The dog ate the food because it was hungry.
//	passive          The food was eaten by the dog because it was hungry.
//	fronted          Because it was hungry, the dog ate the food.
//	fronted-passive  Since it was very hungry, the food was eaten by the dog.
//	passive-adverb   The food was eaten by a dog as it was really hungry.  (validation only)
//	fronted-as       As it was hungry, the dog ate the food.               (test only)
//
// Passive puts the object first, so the antecedent is the first noun in about
// half of the sentences and the second in the other half. Sentences end with
// "." and have at most 16 tokens, punctuation included.
//
// # Splits
//
// Generate(seed) is deterministic for a seed. The split is made by meaning:
//
//  1. Every (noun pair, predicate) combination the lexicon allows is listed,
//     the pair unordered (so "the car overtook the bus because it was fast" and
//     "the bus overtook the car because it was fast" are one combination).
//  2. The combinations are shuffled with the seed; 20% go to test, 15% to
//     validation, the rest to train. The mission sentences' combinations,
//     (dog, food, hungry) and (dog, food, tasty), are always test.
//  3. Each split samples sentences only from its own combinations: choose the
//     role of the answer (agent or object, 50/50), a frame, a combination, a
//     shape and the surface words; duplicate sentences are skipped. No sentence
//     and no combination is shared between splits.
//  4. Train uses the shapes active, passive, fronted and fronted-passive.
//     Validation adds passive-adverb (an adverb in a passive sentence with the
//     reason clause last), test adds fronted-as ("as" opening the sentence).
//     Both are new arrangements of words and orders training has seen, so
//     every validation and test token occurs in train and no <unk> is needed;
//     Generate checks this.
//  5. The test split always contains MissionHungry and MissionTasty.
//
// Sizes are 6000 train, 1000 validation and 1500 test sentences. Baselines
// that ignore meaning (first noun, nearest noun, majority position) all score
// about 50% on test.
//
// # Tokens and ids
//
// Tokenize lower-cases and splits words from punctuation ("Because it was
// hungry, the dog" -> because it was hungry , the dog); an apostrophe inside a
// word stays there ("don't"). The vocabulary is built from train only, sorted,
// with <pad> = 0 and <unk> = 1. Batches pads rows with <pad> and records each
// row's length, pronoun and antecedent positions.
package data
