/* placeholder: replaced by its owner */
typedef int sps_placeholder_t;
