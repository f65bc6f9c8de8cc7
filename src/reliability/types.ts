// Shapes shared by more than one mechanism.

/** A failure as the breaker remembers it and repeats it back to the model. */
export interface FailureRecord {
  readonly turn: number;
  /** The round of `turn` at which the call first failed. */
  readonly round: number;
  /** The error text exactly as the tool or transport gave it. */
  readonly error: string;
}
