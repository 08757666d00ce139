"""Data: the MFDS corpus (식품의약품안전처), KorMedMCQA, and the question sets for training and evaluation."""
