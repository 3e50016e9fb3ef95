//! The test-ROM conformance suite: locating the corpus, reading results, the expectations file.

pub mod nestest;
