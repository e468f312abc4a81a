//! The set operations every game's `Knowledge` switches share (a `u8` of rule bits).

/// Gives a `Knowledge(u8)` tuple struct of rule bits with an `ALL` constant its set
/// operations (`contains`, `with`, `without`) and `ALL` as its default. Each game declares its
/// own rules and their docs; only these operations are the same.
macro_rules! knowledge_set {
    ($name:ident) => {
        impl $name {
            /// True when every rule of `other` is in `self`.
            #[inline]
            pub const fn contains(self, other: $name) -> bool {
                self.0 & other.0 == other.0
            }

            /// The rules of both.
            pub const fn with(self, other: $name) -> $name {
                $name(self.0 | other.0)
            }

            /// The rules of `self` that are not in `other`.
            pub const fn without(self, other: $name) -> $name {
                $name(self.0 & !other.0)
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name::ALL
            }
        }
    };
}

pub(crate) use knowledge_set;
